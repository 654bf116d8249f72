import tempfile
import unittest
from pathlib import Path

from source import RotatingFile, rotating_file_from_settings


class RotatingFileTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = Path(self.tmp.name) / "out" / "events.log"

    def tearDown(self):
        self.tmp.cleanup()

    def test_rotates_by_size_and_keeps_backups(self):
        out = RotatingFile(self.path, max_bytes=9, backups=2)
        for n in range(5):
            out.write(f"rec{n}")
        self.assertEqual([p.name for p in out.files()], ["events.log", "events.log.1", "events.log.2"])
        self.assertEqual(list(out.records()), ["rec2", "rec3", "rec4"])
        self.assertEqual(out.rotations, 4)

    def test_large_record_gets_its_own_file(self):
        out = RotatingFile(self.path, max_bytes=5, backups=3)
        out.write("a")
        out.write("a much longer record")
        self.assertEqual(self.path.read_text(), "a much longer record\n")
        self.assertEqual(out.backup_path(1).read_text(), "a\n")

    def test_no_backups(self):
        out = RotatingFile(self.path, max_bytes=4, backups=0)
        out.write("one")
        out.write("two")
        self.assertEqual(list(out.records()), ["two"])

    def test_nothing_written_until_first_record(self):
        out = RotatingFile(self.path)
        self.assertEqual(out.files(), [])
        self.assertFalse(self.path.parent.exists())

    def test_validation(self):
        with self.assertRaises(ValueError):
            RotatingFile(self.path, max_bytes=0)
        with self.assertRaises(ValueError):
            RotatingFile(self.path, backups=-1)

    def test_factory(self):
        out = rotating_file_from_settings({"archive": {"path": str(self.path), "max_bytes": 3, "backups": 1}})
        self.assertEqual((out.max_bytes, out.backups), (3, 1))
        self.assertEqual(rotating_file_from_settings({}).backups, 5)


if __name__ == "__main__":
    unittest.main()
