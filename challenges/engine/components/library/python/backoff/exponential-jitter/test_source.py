import random
import unittest

from source import RetryError, RetryPolicy, retry_policy_from_settings


class Flaky:
    def __init__(self, failures, error=ConnectionError):
        self.failures = failures
        self.error = error
        self.calls = 0

    def __call__(self, value):
        self.calls += 1
        if self.calls <= self.failures:
            raise self.error("try again")
        return value * 2


class RetryPolicyTest(unittest.TestCase):
    def setUp(self):
        self.sleeps = []
        self.policy = RetryPolicy(max_attempts=3, base_delay=1, max_delay=3, multiplier=2,
                                  sleep=self.sleeps.append, rng=random.Random(7))

    def test_succeeds_after_transient_failures(self):
        flaky = Flaky(2)
        self.assertEqual(self.policy.call(flaky, 21), 42)
        self.assertEqual(flaky.calls, 3)
        self.assertEqual(len(self.sleeps), 2)
        self.assertTrue(0 <= self.sleeps[0] <= 1 and 0 <= self.sleeps[1] <= 2)

    def test_gives_up(self):
        flaky = Flaky(5)
        with self.assertRaises(RetryError) as caught:
            self.policy.call(flaky, 1)
        self.assertEqual(caught.exception.attempts, 3)
        self.assertIsInstance(caught.exception.last, ConnectionError)
        self.assertEqual(flaky.calls, 3)

    def test_other_errors_are_not_retried(self):
        flaky = Flaky(1, error=KeyError)
        with self.assertRaises(KeyError):
            self.policy.call(flaky, 1)
        self.assertEqual(flaky.calls, 1)
        self.assertEqual(self.sleeps, [])

    def test_ceiling_grows_and_caps(self):
        self.assertEqual([self.policy.ceiling(n) for n in (1, 2, 3, 4)], [1, 2, 3, 3])

    def test_on_retry_and_wrap(self):
        seen = []
        flaky = Flaky(1)
        self.assertEqual(self.policy.call(flaky, 2, on_retry=lambda n, exc, wait: seen.append(n)), 4)
        self.assertEqual(seen, [1])
        wrapped = self.policy.wrap(Flaky(1))
        self.assertEqual(wrapped(5), 10)

    def test_validation(self):
        with self.assertRaises(ValueError):
            RetryPolicy(max_attempts=0)
        with self.assertRaises(ValueError):
            RetryPolicy(base_delay=2, max_delay=1)

    def test_factory(self):
        policy = retry_policy_from_settings({"backoff": {"max_attempts": 2, "base_delay": 0}})
        self.assertEqual(policy.max_attempts, 2)
        with self.assertRaises(RetryError):
            policy.call(Flaky(3), 1)
        self.assertEqual(retry_policy_from_settings({}).max_attempts, 4)


if __name__ == "__main__":
    unittest.main()
