import unittest

from source import ShortHasher, short_hashes_from_settings


class ShortHasherTest(unittest.TestCase):
    def test_same_value_same_reference(self):
        hasher = ShortHasher(length=6)
        first = hasher.ref({"a": 1, "b": 2})
        self.assertEqual(hasher.ref({"b": 2, "a": 1}), first)
        self.assertEqual(len(first), 6)
        self.assertEqual(len(hasher), 1)

    def test_references_are_deterministic_across_hashers(self):
        self.assertEqual(ShortHasher().ref("report.csv"), ShortHasher().ref("report.csv"))

    def test_salt_changes_references(self):
        self.assertNotEqual(ShortHasher(salt="a").ref("x"), ShortHasher(salt="b").ref("x"))

    def test_collisions_lengthen_the_newer_reference(self):
        hasher = ShortHasher(length=4)
        refs = {}
        for number in range(20000):
            refs[number] = hasher.ref(number)
        self.assertEqual(len(set(refs.values())), 20000)
        self.assertTrue(any(len(ref) > 4 for ref in refs.values()))
        for number, ref in refs.items():
            self.assertEqual(hasher.resolve(ref), hasher.digest(number))

    def test_resolve_unknown_and_ambiguous(self):
        hasher = ShortHasher(length=4)
        with self.assertRaises(KeyError):
            hasher.resolve("zzzz")
        for number in range(200):
            hasher.ref(number)
        with self.assertRaises(LookupError):
            hasher.resolve("")

    def test_contains(self):
        hasher = ShortHasher()
        hasher.ref(b"bytes")
        self.assertIn(b"bytes", hasher)
        self.assertNotIn(b"other", hasher)

    def test_validation(self):
        with self.assertRaises(ValueError):
            ShortHasher(length=2)
        with self.assertRaises(ValueError):
            ShortHasher(algorithm="crc")

    def test_factory(self):
        hasher = short_hashes_from_settings({"ids": {"length": 10, "salt": "s", "algorithm": "sha1"}})
        self.assertEqual(len(hasher.ref("x")), 10)
        self.assertEqual(len(short_hashes_from_settings({}).ref("x")), 8)


if __name__ == "__main__":
    unittest.main()
