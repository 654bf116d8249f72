import threading
import unittest

from source import KeyedLocks, keyed_locks_from_settings


class KeyedLocksTest(unittest.TestCase):
    def setUp(self):
        self.locks = KeyedLocks(timeout=1)

    def test_same_key_is_exclusive_other_keys_are_not(self):
        self.assertTrue(self.locks.acquire("a"))
        self.assertFalse(self.locks.acquire("a", timeout=0))
        self.assertTrue(self.locks.acquire("b", timeout=0))
        self.locks.release("a")
        self.locks.release("b")
        self.assertEqual(len(self.locks), 0)

    def test_entries_are_dropped_when_idle(self):
        with self.locks.hold("x"):
            self.assertTrue(self.locks.locked("x"))
            self.assertEqual(len(self.locks), 1)
        self.assertFalse(self.locks.locked("x"))
        self.assertEqual(len(self.locks), 0)

    def test_serialises_concurrent_work_per_key(self):
        counter = {"value": 0}
        locks = KeyedLocks(timeout=-1)  # wait as long as it takes: a busy machine must not time out

        def work():
            for _ in range(200):
                with locks.hold("counter"):
                    current = counter["value"]
                    counter["value"] = current + 1

        threads = [threading.Thread(target=work) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        self.assertEqual(counter["value"], 800)
        self.assertEqual(len(locks), 0)

    def test_hold_times_out(self):
        self.locks.acquire("busy")
        with self.assertRaises(TimeoutError):
            with self.locks.hold("busy", timeout=0):
                pass
        self.locks.release("busy")

    def test_release_errors(self):
        with self.assertRaises(RuntimeError):
            self.locks.release("never")

    def test_key_limit(self):
        locks = KeyedLocks(max_keys=1)
        locks.acquire("a")
        with self.assertRaises(RuntimeError):
            locks.acquire("b")

    def test_factory(self):
        locks = keyed_locks_from_settings({"lock": {"timeout": 0.5, "max_keys": 3}})
        self.assertEqual((locks.timeout, locks.max_keys), (0.5, 3))
        self.assertEqual(keyed_locks_from_settings({}).timeout, 5.0)


if __name__ == "__main__":
    unittest.main()
