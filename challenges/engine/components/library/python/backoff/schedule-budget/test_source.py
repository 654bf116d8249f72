import unittest

from source import Retrier, RetryBudget, parse_schedule, retrier_from_settings


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def failing(times, error=ConnectionError):
    state = {"calls": 0}

    def call():
        state["calls"] += 1
        if state["calls"] <= times:
            raise error("down")
        return "ok"

    return call, state


class ScheduleTest(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(parse_schedule("0.2, 1,5"), (0.2, 1.0, 5.0))
        self.assertEqual(parse_schedule([1, 2]), (1.0, 2.0))
        self.assertEqual(parse_schedule(""), ())

    def test_invalid(self):
        for bad in ("1, x", "-1"):
            with self.subTest(bad=bad), self.assertRaises(ValueError):
                parse_schedule(bad)


class RetrierTest(unittest.TestCase):
    def setUp(self):
        self.clock = Clock()
        self.sleeps = []

    def retrier(self, schedule=(1, 2, 3), ratio=0.0, min_retries=100):
        budget = RetryBudget(ratio=ratio, min_retries=min_retries, clock=self.clock)
        return Retrier(schedule, budget, sleep=self.sleeps.append)

    def test_follows_the_schedule(self):
        call, state = failing(2)
        self.assertEqual(self.retrier().run(call), "ok")
        self.assertEqual(self.sleeps, [1, 2])
        self.assertEqual(state["calls"], 3)

    def test_schedule_exhausted(self):
        call, _ = failing(10)
        with self.assertRaises(ConnectionError):
            self.retrier(schedule=(1,)).run(call)
        self.assertEqual(self.sleeps, [1])

    def test_non_retryable_errors_propagate(self):
        call, state = failing(1, error=ValueError)
        with self.assertRaises(ValueError):
            self.retrier().run(call)
        self.assertEqual(state["calls"], 1)

    def test_budget_stops_retry_storms(self):
        retrier = self.retrier(ratio=0.0, min_retries=2)
        for _ in range(3):
            call, _ = failing(10)
            with self.assertRaises(ConnectionError):
                retrier.run(call)
        self.assertEqual(len(self.sleeps), 2)
        self.clock.now += 11
        call, _ = failing(1)
        self.assertEqual(retrier.run(call), "ok")

    def test_budget_grows_with_traffic(self):
        budget = RetryBudget(ratio=0.5, min_retries=0, clock=self.clock)
        for _ in range(4):
            budget.record_request()
        self.assertEqual([budget.try_spend() for _ in range(3)], [True, True, False])
        self.assertEqual(budget.retries_in_window, 2)

    def test_factory(self):
        retrier = retrier_from_settings({"backoff": {"schedule": "0, 0", "min_retries": 1}})
        self.assertEqual(retrier.schedule, (0.0, 0.0))
        self.assertEqual(retrier.budget.min_retries, 1)
        self.assertEqual(retrier_from_settings({}).schedule, (0.2, 1.0, 5.0))


if __name__ == "__main__":
    unittest.main()
