import unittest

from source import LeaseHeld, LeaseTable, lease_table_from_settings


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class LeaseTableTest(unittest.TestCase):
    def setUp(self):
        self.clock = Clock()
        self.leases = LeaseTable(ttl_seconds=10, max_ttl_seconds=60, clock=self.clock)

    def test_exclusive_until_expiry(self):
        first = self.leases.acquire("reindex", "worker-a")
        with self.assertRaises(LeaseHeld) as caught:
            self.leases.acquire("reindex", "worker-b")
        self.assertEqual(caught.exception.lease.holder, "worker-a")
        self.clock.now = 10
        second = self.leases.acquire("reindex", "worker-b")
        self.assertGreater(second.token, first.token)
        self.assertFalse(self.leases.valid_token("reindex", first.token))
        self.assertTrue(self.leases.valid_token("reindex", second.token))

    def test_renewal_keeps_the_token(self):
        lease = self.leases.acquire("job", "a")
        self.clock.now = 8
        renewed = self.leases.renew(lease)
        self.assertEqual((renewed.token, renewed.expires_at), (lease.token, 18))
        self.clock.now = 15
        self.assertEqual(self.leases.current("job").holder, "a")
        self.assertEqual(self.leases.acquire("job", "a").token, lease.token)

    def test_expired_lease_cannot_be_renewed_or_released(self):
        lease = self.leases.acquire("job", "a")
        self.clock.now = 11
        with self.assertRaises(LookupError):
            self.leases.renew(lease)
        self.assertFalse(self.leases.release(lease))

    def test_release(self):
        lease = self.leases.acquire("job", "a")
        self.assertTrue(self.leases.release(lease))
        self.assertIsNone(self.leases.current("job"))
        self.assertEqual(self.leases.acquire("job", "b").token, 2)

    def test_ttl_is_capped_and_validated(self):
        self.assertEqual(self.leases.acquire("x", "a", ttl=1000).expires_at, 60)
        with self.assertRaises(ValueError):
            self.leases.acquire("y", "a", ttl=0)
        with self.assertRaises(ValueError):
            LeaseTable(ttl_seconds=100, max_ttl_seconds=10)

    def test_factory(self):
        table = lease_table_from_settings({"lock": {"ttl_seconds": 5}})
        self.assertEqual((table.ttl_seconds, table.max_ttl_seconds), (5.0, 300.0))
        self.assertEqual(lease_table_from_settings({}).ttl_seconds, 30.0)


if __name__ == "__main__":
    unittest.main()
