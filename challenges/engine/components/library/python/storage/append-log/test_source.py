import tempfile
import unittest
from pathlib import Path

from source import AppendLog, Entry, append_log_from_settings


class AppendLogTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.path = Path(self.tmp.name) / "sub" / "log.jsonl"
        self.log = AppendLog(self.path, sync_every=0)

    def tearDown(self):
        self.tmp.cleanup()

    def test_sequence_numbers_and_reading_back(self):
        self.assertEqual(self.log.append("created", {"id": 1}).seq, 1)
        self.assertEqual(self.log.append("renamed", {"id": 1, "to": "b"}).seq, 2)
        self.assertEqual(list(self.log.entries()), [
            Entry(1, "created", {"id": 1}), Entry(2, "renamed", {"id": 1, "to": "b"})])
        self.assertEqual([e.seq for e in self.log.entries(after=1)], [2])
        self.assertEqual([e.seq for e in self.log.entries(kind="created")], [1])

    def test_reopening_continues_the_sequence(self):
        self.log.append("a")
        self.assertEqual(AppendLog(self.path).append("b").seq, 2)

    def test_torn_tail_is_cut(self):
        self.log.append("a")
        self.log.append("b")
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write('{"seq": 3, "kind": "c", "da')
        reopened = AppendLog(self.path)
        self.assertEqual(reopened.last_seq, 2)
        self.assertEqual(reopened.append("c").seq, 3)
        self.assertEqual([e.kind for e in reopened.entries()], ["a", "b", "c"])

    def test_corruption_in_the_middle_is_reported(self):
        self.log.append("a")
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write("garbage\n")
        self.log.append("b")
        with self.assertRaises(Exception) as caught:
            _ = AppendLog(self.path).last_seq
        self.assertIn("line 2", str(caught.exception))

    def test_replay(self):
        for n in range(3):
            self.log.append("n", {"n": n})
        seen = []
        self.assertEqual(self.log.replay(lambda e: seen.append(e.data["n"]), after=1), 3)
        self.assertEqual(seen, [1, 2])

    def test_empty_log(self):
        self.assertEqual(list(self.log.entries()), [])
        self.assertEqual(self.log.last_seq, 0)
        self.assertFalse(self.path.exists())
        with self.assertRaises(ValueError):
            self.log.append("")

    def test_factory(self):
        log = append_log_from_settings({"storage": {"path": str(self.path), "sync_every": 5}})
        self.assertEqual((log.path, log.sync_every), (self.path, 5))
        self.assertEqual(append_log_from_settings({}).path, Path("var/journal.jsonl"))


if __name__ == "__main__":
    unittest.main()
