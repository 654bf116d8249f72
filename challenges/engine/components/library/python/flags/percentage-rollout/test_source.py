import unittest

from source import FeatureFlags, Flag, bucket_of, flags_from_settings


class FeatureFlagsTest(unittest.TestCase):
    def test_bucket_is_stable_and_in_range(self):
        self.assertEqual(bucket_of("f", "user-1", "s"), bucket_of("f", "user-1", "s"))
        self.assertNotEqual(bucket_of("f", "user-1", "s"), bucket_of("f", "user-1", "t"))
        self.assertTrue(all(0 <= bucket_of("f", str(n)) < 10_000 for n in range(100)))

    def test_percentage_is_roughly_respected(self):
        flags = FeatureFlags([Flag("beta", 30)], salt="x")
        share = sum(flags.enabled("beta", f"user-{n}") for n in range(5000)) / 5000
        self.assertAlmostEqual(share, 0.30, delta=0.03)

    def test_raising_the_percentage_only_adds_subjects(self):
        flags = FeatureFlags([Flag("beta", 10)])
        before = {n for n in range(2000) if flags.enabled("beta", str(n))}
        flags.set_percent("beta", 40)
        after = {n for n in range(2000) if flags.enabled("beta", str(n))}
        self.assertTrue(before < after)

    def test_allow_and_deny_lists_win(self):
        flags = FeatureFlags()
        flags.define("beta", 100, deny=["mallory"])
        flags.define("alpha", 0, allow=["ada"])
        self.assertFalse(flags.enabled("beta", "mallory"))
        self.assertTrue(flags.enabled("beta", "anyone"))
        self.assertTrue(flags.enabled("alpha", "ada"))
        self.assertFalse(flags.enabled("alpha", "bob"))

    def test_without_subject(self):
        flags = FeatureFlags([Flag("half", 50), Flag("all", 100)])
        self.assertFalse(flags.enabled("half"))
        self.assertTrue(flags.enabled("all"))

    def test_unknown_and_invalid(self):
        with self.assertRaises(KeyError):
            FeatureFlags().enabled("nope", "x")
        with self.assertRaises(ValueError):
            Flag("bad", 150)

    def test_factory(self):
        flags = flags_from_settings({"flags": {"salt": "s", "rollout": {"a": 100, "b": 0}}})
        self.assertEqual(flags.snapshot("u"), {"a": True, "b": False})
        self.assertEqual(flags_from_settings({}).names(), [])


if __name__ == "__main__":
    unittest.main()
