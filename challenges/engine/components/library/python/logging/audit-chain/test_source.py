import dataclasses
import unittest

from source import AuditTrail, audit_trail_from_settings


def fixed_clock():
    ticks = iter(range(1, 10_000))
    return lambda: f"2024-01-01T00:00:{next(ticks):02d}+00:00"


class AuditTrailTest(unittest.TestCase):
    def setUp(self):
        self.trail = AuditTrail(now=fixed_clock())
        self.trail.record("create", "invoice/7", actor="ada", total=120)
        self.trail.record("approve", "invoice/7", actor="bob")
        self.trail.record("create", "invoice/8", actor="ada")

    def test_entries_are_chained(self):
        first, second, _ = self.trail.entries()
        self.assertEqual(second.previous, first.digest)
        self.assertEqual(first.details, {"total": 120})
        self.assertIsNone(self.trail.verify())

    def test_filters(self):
        self.assertEqual([e.seq for e in self.trail.entries(target="invoice/7")], [1, 2])
        self.assertEqual([e.seq for e in self.trail.entries(actor="ada")], [1, 3])

    def test_tampering_is_detected(self):
        entries = self.trail._entries
        entries[1] = dataclasses.replace(entries[1], actor="mallory")
        self.assertEqual(self.trail.verify(), 2)

    def test_removal_is_detected(self):
        del self.trail._entries[0]
        self.assertEqual(self.trail.verify(), 1)

    def test_export_and_load_round_trip(self):
        text = self.trail.export()
        loaded = AuditTrail.load(text.splitlines())
        self.assertEqual(loaded.entries(), self.trail.entries())
        self.assertIsNone(loaded.verify())
        self.assertEqual(AuditTrail.load(text.replace("bob", "eve").splitlines()).verify(), 2)

    def test_required_fields(self):
        with self.assertRaises(ValueError):
            self.trail.record("delete", "invoice/7")
        with self.assertRaises(ValueError):
            self.trail.record("", "invoice/7", actor="ada")
        self.assertEqual(AuditTrail(actor_required=False).record("purge", "cache").actor, "system")

    def test_capacity(self):
        trail = AuditTrail(max_entries=1)
        trail.record("a", "b", actor="c")
        with self.assertRaises(OverflowError):
            trail.record("a", "b", actor="c")

    def test_factory(self):
        trail = audit_trail_from_settings({"logging": {"actor_required": False, "max_entries": 5}})
        self.assertEqual((trail.actor_required, trail.max_entries), (False, 5))
        self.assertTrue(audit_trail_from_settings({}).actor_required)


if __name__ == "__main__":
    unittest.main()
