import unittest

from source import WindowStats, build_window_stats


class FakeClock:
    def __init__(self, now=100.0):
        self.now = now

    def __call__(self):
        return self.now


class WindowStatsTest(unittest.TestCase):
    def setUp(self):
        self.clock = FakeClock()
        self.stats = WindowStats(window_seconds=10, max_samples=100, clock=self.clock)

    def test_samples_leave_the_window(self):
        self.stats.record("requests")
        self.clock.now += 5
        self.stats.record("requests")
        self.assertEqual(self.stats.count("requests"), 2)
        self.clock.now += 5
        self.assertEqual(self.stats.count("requests"), 1)
        self.clock.now += 5
        self.assertEqual(self.stats.count("requests"), 0)
        self.assertEqual(self.stats.names(), [])

    def test_rate_is_per_second(self):
        for _ in range(20):
            self.stats.record("hits")
        self.assertEqual(self.stats.rate("hits"), 2.0)

    def test_summary_percentiles(self):
        for value in range(1, 101):
            self.stats.record("latency", value)
        summary = self.stats.summary("latency")
        self.assertEqual(summary.count, 100)
        self.assertEqual(summary.p50, 50)
        self.assertEqual(summary.p95, 95)
        self.assertEqual(summary.p99, 99)
        self.assertEqual(summary.maximum, 100)
        self.assertAlmostEqual(summary.mean, 50.5)

    def test_empty_summary(self):
        self.assertEqual(self.stats.summary("nothing").count, 0)

    def test_max_samples_bounds_memory(self):
        stats = WindowStats(window_seconds=10, max_samples=3, clock=self.clock)
        for value in range(5):
            stats.record("x", value)
        self.assertEqual(stats.values("x"), [2.0, 3.0, 4.0])

    def test_clock_going_backwards_is_refused(self):
        self.stats.record("x")
        self.clock.now -= 1
        with self.assertRaises(ValueError):
            self.stats.record("x")

    def test_reset(self):
        self.stats.record("a")
        self.stats.record("b")
        self.stats.reset("a")
        self.assertEqual(self.stats.names(), ["b"])
        self.stats.reset()
        self.assertEqual(self.stats.names(), [])

    def test_factory_reads_the_section(self):
        stats = build_window_stats({"metrics": {"window_seconds": 2, "max_samples": 5}}, clock=self.clock)
        self.assertEqual(stats.window_seconds, 2.0)
        self.assertEqual(build_window_stats({}).window_seconds, 60.0)


if __name__ == "__main__":
    unittest.main()
