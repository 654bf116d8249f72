import json
import os
import tempfile
import unittest
from pathlib import Path

from source import FileLock, LockFactory, LockTimeout, lock_factory_from_settings


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now

    def sleep(self, seconds):
        self.now += seconds


class FileLockTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.clock = Clock()
        self.path = Path(self.tmp.name) / "job.lock"

    def tearDown(self):
        self.tmp.cleanup()

    def make(self, **options):
        return FileLock(self.path, clock=self.clock, sleep=self.clock.sleep, **options)

    def test_exclusive(self):
        first = self.make(timeout=1, poll_interval=0.25)
        first.acquire()
        self.assertEqual(first.owner()["pid"], os.getpid())
        with self.assertRaises(LockTimeout):
            self.make(timeout=1, poll_interval=0.25).acquire()
        first.release()
        self.assertFalse(self.path.exists())
        with self.make() as second:
            self.assertTrue(second.held)
        self.assertFalse(second.held)

    def test_stale_lock_is_taken_over(self):
        self.path.write_text(json.dumps({"pid": 1, "host": "old", "since": self.clock.now - 500}))
        lock = self.make(stale_after=300, timeout=0)
        lock.acquire()
        self.assertEqual(lock.owner()["since"], self.clock.now)

    def test_unreadable_lock_uses_the_file_time(self):
        self.path.write_text("not json")
        os.utime(self.path, (self.clock.now - 10, self.clock.now - 10))
        with self.assertRaises(LockTimeout):
            self.make(stale_after=300, timeout=0).acquire()

    def test_double_acquire_and_release_without_holding(self):
        lock = self.make()
        with self.assertRaises(RuntimeError):
            lock.release()
        lock.acquire()
        with self.assertRaises(RuntimeError):
            lock.acquire()
        lock.release()

    def test_factory(self):
        factory = lock_factory_from_settings({"lock": {"directory": self.tmp.name, "timeout": 0}})
        with factory.lock("nightly-export") as lock:
            self.assertTrue((Path(self.tmp.name) / "nightly-export.lock").exists())
            self.assertTrue(lock.held)
        with self.assertRaises(ValueError):
            factory.lock("../escape")
        self.assertIsInstance(lock_factory_from_settings({}), LockFactory)


if __name__ == "__main__":
    unittest.main()
