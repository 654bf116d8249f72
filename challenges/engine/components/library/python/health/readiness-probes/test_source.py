import unittest

from source import ProbeSet, probes_from_settings


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class Switch:
    def __init__(self):
        self.up = True
        self.calls = 0

    def __call__(self):
        self.calls += 1
        if not self.up:
            raise ConnectionError("no route")
        return True


class ProbeSetTest(unittest.TestCase):
    def setUp(self):
        self.clock = Clock()
        self.probes = ProbeSet(failure_threshold=2, success_threshold=2, cache_seconds=1, clock=self.clock)
        self.db = Switch()
        self.probes.add("readiness", "db", self.db)

    def poll(self):
        self.clock.now += 1
        return self.probes.ready()

    def test_one_failure_is_tolerated(self):
        self.db.up = False
        self.assertTrue(self.poll())
        self.assertFalse(self.poll())
        self.assertEqual(self.probes.describe()["failing"], {"db": "ConnectionError: no route"})

    def test_recovery_needs_consecutive_successes(self):
        self.db.up = False
        self.poll()
        self.poll()
        self.db.up = True
        self.assertFalse(self.poll())
        self.assertTrue(self.poll())

    def test_results_are_cached(self):
        self.poll()
        self.probes.ready()
        self.probes.ready()
        self.assertEqual(self.db.calls, 1)

    def test_not_alive_means_not_ready(self):
        self.probes.add("liveness", "loop", lambda: False)
        self.poll()
        self.assertFalse(self.poll())
        self.assertEqual(self.probes.describe()["alive"], False)
        self.assertEqual(self.probes.describe()["failing"]["loop"], "probe returned a false value")

    def test_invalid_registration(self):
        with self.assertRaises(ValueError):
            self.probes.add("startup", "x", lambda: True)
        with self.assertRaises(ValueError):
            self.probes.add("readiness", "db", lambda: True)

    def test_factory(self):
        probes = probes_from_settings({"health": {"failure_threshold": 1, "cache_seconds": 0}})
        probes.add("readiness", "x", lambda: False)
        self.assertFalse(probes.ready())
        self.assertEqual(probes_from_settings({}).failure_threshold, 3)


if __name__ == "__main__":
    unittest.main()
