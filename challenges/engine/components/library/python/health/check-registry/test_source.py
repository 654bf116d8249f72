import unittest

from source import HealthRegistry, health_from_settings


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class HealthRegistryTest(unittest.TestCase):
    def setUp(self):
        self.clock = Clock()
        self.health = HealthRegistry(budget_seconds=1.0, clock=self.clock)

    def test_all_healthy(self):
        self.health.register("db", lambda: None)
        report = self.health.run()
        self.assertEqual(report.status, "healthy")
        self.assertTrue(self.health.healthy())

    def test_message_means_degraded(self):
        self.health.register("disk", lambda: "82% full")
        report = self.health.run()
        self.assertEqual(report.status, "degraded")
        self.assertEqual(report.to_dict()["checks"]["disk"]["detail"], "82% full")

    def test_critical_failure_is_unhealthy(self):
        def broken():
            raise ConnectionError("refused")

        self.health.register("db", broken)
        self.health.register("cache", lambda: None)
        report = self.health.run()
        self.assertEqual(report.status, "unhealthy")
        self.assertEqual(report.checks[1].detail, "ConnectionError: refused")
        self.assertFalse(self.health.healthy())

    def test_non_critical_failure_only_degrades(self):
        self.health.register("mail", lambda: 1 / 0, critical=False)
        self.assertEqual(self.health.run().status, "degraded")

    def test_slow_check_is_degraded(self):
        def slow():
            self.clock.now += 1.5

        self.health.register("search", slow)
        result = self.health.run().checks[0]
        self.assertEqual(result.status, "degraded")
        self.assertIn("budget 1.000s", result.detail)

    def test_decorator_duplicates_and_selection(self):
        @self.health.check("queue")
        def queue():
            return None

        with self.assertRaises(ValueError):
            self.health.register("queue", queue)
        self.assertEqual([c.name for c in self.health.run(["queue"]).checks], ["queue"])
        with self.assertRaises(KeyError):
            self.health.run(["nope"])

    def test_factory(self):
        registry = health_from_settings({"health": {"budget_seconds": 0.5, "degraded_is_ok": False}})
        registry.register("disk", lambda: "almost full")
        self.assertFalse(registry.healthy())
        self.assertEqual(health_from_settings({}).budget_seconds, 2.0)


if __name__ == "__main__":
    unittest.main()
