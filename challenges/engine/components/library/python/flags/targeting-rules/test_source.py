import unittest

from source import Rule, Toggles, toggles_from_settings


class TogglesTest(unittest.TestCase):
    def setUp(self):
        self.env = {}
        self.toggles = Toggles(environ=self.env)
        self.toggles.define("new-search", [
            Rule(False, {"country": "DE"}),
            Rule(True, {"plan__in": ("team", "enterprise")}),
            Rule(True, {"beta": True, "age_days__gte": 30}),
        ])

    def test_first_matching_rule_decides(self):
        self.assertTrue(self.toggles.is_on("new-search", {"plan": "team"}))
        self.assertFalse(self.toggles.is_on("new-search", {"plan": "team", "country": "DE"}))
        self.assertEqual(self.toggles.explain("new-search", {"plan": "team", "country": "DE"}), "rule 1")

    def test_all_conditions_of_a_rule_must_hold(self):
        self.assertTrue(self.toggles.is_on("new-search", {"beta": True, "age_days": 31}))
        self.assertFalse(self.toggles.is_on("new-search", {"beta": True, "age_days": 3}))
        self.assertFalse(self.toggles.is_on("new-search", {"beta": True}))

    def test_default_when_nothing_matches(self):
        self.assertFalse(self.toggles.is_on("new-search", {"plan": "free"}))
        self.assertEqual(self.toggles.explain("new-search", {}), "toggle default")
        self.assertFalse(self.toggles.is_on("undefined"))

    def test_environment_override(self):
        self.env["TOGGLE_NEW_SEARCH"] = "on"
        self.assertTrue(self.toggles.is_on("new-search", {"country": "DE"}))
        self.assertEqual(self.toggles.explain("new-search"), "environment override")
        self.env["TOGGLE_NEW_SEARCH"] = "maybe"
        with self.assertRaises(ValueError):
            self.toggles.is_on("new-search")

    def test_mismatched_types_do_not_match(self):
        self.assertFalse(self.toggles.is_on("new-search", {"beta": True, "age_days": "old"}))

    def test_unknown_operator(self):
        with self.assertRaises(ValueError):
            Rule(True, {"age__between": (1, 2)})

    def test_factory(self):
        toggles = toggles_from_settings({"flags": {"env_prefix": "FF_", "default": True}}, environ={"FF_X": "off"})
        self.assertFalse(toggles.is_on("x"))
        self.assertTrue(toggles.is_on("y"))
        self.assertEqual(toggles_from_settings({}, environ={}).env_prefix, "TOGGLE_")


if __name__ == "__main__":
    unittest.main()
