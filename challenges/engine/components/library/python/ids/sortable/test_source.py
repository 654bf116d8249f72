import unittest

from source import IdGenerator, decode_time, id_generator_from_settings


class Clock:
    def __init__(self, now):
        self.now = now

    def __call__(self):
        return self.now


def counting_entropy():
    state = {"n": 0}

    def entropy(size):
        state["n"] += 1
        return state["n"].to_bytes(size, "big")

    return entropy


class IdGeneratorTest(unittest.TestCase):
    def test_ids_sort_by_time(self):
        clock = Clock(1_700_000_000.0)
        ids = IdGenerator(clock=clock, entropy=counting_entropy())
        first = ids.new()
        clock.now += 0.002
        second = ids.new()
        self.assertLess(first, second)
        self.assertEqual(len(first), 26)

    def test_same_millisecond_keeps_creation_order(self):
        clock = Clock(1_700_000_000.0)
        ids = IdGenerator(clock=clock, entropy=lambda size: b"\xff" * (size - 1) + b"\x00")
        made = [ids.new() for _ in range(50)]
        self.assertEqual(made, sorted(made))
        self.assertEqual(len(set(made)), 50)

    def test_clock_going_back_still_sorts(self):
        clock = Clock(1_700_000_000.5)
        ids = IdGenerator(clock=clock, entropy=counting_entropy())
        first = ids.new()
        clock.now -= 1
        self.assertLess(first, ids.new())

    def test_creation_time_round_trips(self):
        ids = IdGenerator(prefix="ord_", clock=Clock(1_650_000_000.123))
        identifier = ids.new()
        self.assertTrue(identifier.startswith("ord_"))
        self.assertAlmostEqual(decode_time(identifier, "ord_"), 1_650_000_000.123, places=3)

    def test_valid(self):
        ids = IdGenerator(prefix="u-")
        self.assertTrue(ids.valid(ids.new()))
        self.assertFalse(ids.valid("u-ILLEGAL"))
        self.assertFalse(ids.valid("x-" + ids.new()[2:]))

    def test_random_size_is_bounded(self):
        with self.assertRaises(ValueError):
            IdGenerator(random_bytes=2)

    def test_factory(self):
        ids = id_generator_from_settings({"ids": {"prefix": "inv_", "random_bytes": 5}})
        identifier = ids.new()
        self.assertTrue(identifier.startswith("inv_"))
        self.assertEqual(len(identifier), 4 + 10 + 8)
        self.assertEqual(len(id_generator_from_settings({}).new()), 26)


if __name__ == "__main__":
    unittest.main()
