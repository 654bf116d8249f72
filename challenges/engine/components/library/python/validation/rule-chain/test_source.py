import unittest

from source import Check, Checker, Violation, checker_from_settings


def signup_checker(**options):
    return Checker([
        Check("email").required().string().matches(r"[^@\s]+@[^@\s]+", "is not an address"),
        Check("age").integer().between(13, 120),
        Check("profile.nickname").string().length(2, 12),
        Check("plan").one_of(["free", "team"]),
    ], **options)


class CheckerTest(unittest.TestCase):
    def test_valid_data(self):
        data = {"email": "a@b.example", "age": 30, "profile": {"nickname": "ace"}, "plan": "team"}
        self.assertEqual(signup_checker().violations(data), [])
        signup_checker().validate(data)

    def test_collects_every_violation(self):
        data = {"email": "nope", "age": 7, "profile": {"nickname": "x"}, "plan": "pro"}
        self.assertEqual(signup_checker().violations(data), [
            Violation("email", "is not an address"),
            Violation("age", "must be between 13 and 120"),
            Violation("profile.nickname", "must have at least 2 characters"),
            Violation("plan", "must be one of free, team"),
        ])

    def test_required_and_optional(self):
        self.assertEqual(signup_checker().violations({}), [Violation("email", "is required")])

    def test_wrong_types_do_not_crash(self):
        found = signup_checker().violations({"email": "a@b.c", "age": "old"})
        self.assertEqual(found, [Violation("age", "must be a whole number")])
        odd = Checker([Check("n").between(1, 2)]).violations({"n": "text"})
        self.assertEqual(odd, [Violation("n", "has the wrong type")])

    def test_stop_at_first(self):
        found = signup_checker(stop_at_first=True).violations({"email": "x", "age": 1})
        self.assertEqual(len(found), 1)

    def test_validate_raises_with_all_messages(self):
        with self.assertRaisesRegex(ValueError, "email: is required"):
            signup_checker().validate({"age": 20})

    def test_custom_predicate(self):
        checker = Checker().add(Check("n").satisfies(lambda v: v % 2 == 0, "must be even"))
        self.assertEqual(str(checker.violations({"n": 3})[0]), "n: must be even")

    def test_factory(self):
        checker = checker_from_settings({"validation": {"max_violations": 1}}, signup_checker().checks)
        self.assertEqual(len(checker.violations({"email": "x", "age": 1})), 1)
        self.assertFalse(checker_from_settings({}).stop_at_first)


if __name__ == "__main__":
    unittest.main()
