import gzip
import tempfile
import unittest
from datetime import datetime, timedelta, timezone
from pathlib import Path

from source import SnapshotArchive, snapshots_from_settings


class Ticker:
    def __init__(self):
        self.now = datetime(2024, 3, 1, 12, 0, tzinfo=timezone.utc)

    def __call__(self):
        self.now += timedelta(seconds=1)
        return self.now


class SnapshotArchiveTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.archive = SnapshotArchive(self.tmp.name, keep=2, now=Ticker())

    def tearDown(self):
        self.tmp.cleanup()

    def test_save_and_load_latest(self):
        self.archive.save("state", {"n": 1})
        info = self.archive.save("state", {"n": 2})
        self.assertEqual(info.taken_at, "20240301T120002000000Z")
        self.assertEqual(self.archive.latest("state"), {"n": 2})
        self.assertIsNone(self.archive.latest("other"))

    def test_retention_per_label(self):
        for n in range(4):
            self.archive.save("state", {"n": n})
        self.archive.save("index", [1])
        self.assertEqual([self.archive.load(i)["n"] for i in self.archive.list("state")], [2, 3])
        self.assertEqual(len(self.archive.list("index")), 1)
        self.assertEqual(len(list(Path(self.tmp.name).glob("*.sha256"))), 3)

    def test_corrupt_snapshot_is_refused(self):
        info = self.archive.save("state", {"n": 1})
        with gzip.open(info.path, "wb") as handle:
            handle.write(b'{"n":2}')
        with self.assertRaises(Exception) as caught:
            self.archive.latest("state")
        self.assertIn("checksum", str(caught.exception))

    def test_invalid_label(self):
        with self.assertRaises(ValueError):
            self.archive.save("../up", {})

    def test_factory(self):
        archive = snapshots_from_settings({"archive": {"directory": self.tmp.name, "keep": 3}})
        self.assertEqual(archive.keep, 3)
        self.assertEqual(snapshots_from_settings({}).directory, Path("var/snapshots"))
        with self.assertRaises(ValueError):
            snapshots_from_settings({"archive": {"compress_level": 11}})


if __name__ == "__main__":
    unittest.main()
