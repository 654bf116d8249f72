import unittest

from source import Field, Schema, SchemaError, SchemaOptions, schema_options_from_settings

PERSON = Schema({
    "name": Field(str, max_length=10),
    "age": Field(int, minimum=0, maximum=150),
    "active": Field(bool, required=False, default=True),
    "plan": Field(str, required=False, default="basic", choices=("basic", "plus")),
    "code": Field(str, required=False, pattern=r"[A-Z]{3}"),
})


class SchemaTest(unittest.TestCase):
    def test_coerces_and_fills_defaults(self):
        clean = PERSON.load({"name": " Ada ", "age": "36", "active": "no"})
        self.assertEqual(clean, {"name": "Ada", "age": 36, "active": False, "plan": "basic", "code": None})

    def test_reports_every_problem(self):
        with self.assertRaises(SchemaError) as caught:
            PERSON.load({"age": "-3", "plan": "premium", "code": "ab", "extra": 1})
        self.assertEqual(caught.exception.errors, {
            "name": "is required",
            "age": "must be at least 0",
            "plan": "must be one of basic, plus",
            "code": "has an invalid format",
            "extra": "is not a known field",
        })

    def test_type_errors(self):
        with self.assertRaises(SchemaError) as caught:
            PERSON.load({"name": "x", "age": 2.5, "active": "maybe"})
        self.assertEqual(caught.exception.errors["age"], "expected a whole number")
        self.assertEqual(caught.exception.errors["active"], "expected a boolean")

    def test_custom_check(self):
        schema = Schema({"even": Field(int, check=lambda v: None if v % 2 == 0 else "must be even")})
        self.assertEqual(schema.load({"even": 4}), {"even": 4})
        with self.assertRaises(SchemaError):
            schema.load({"even": 3})

    def test_partial_and_unknown_fields(self):
        self.assertEqual(PERSON.partial().load({"age": 5})["age"], 5)
        lenient = Schema({"a": Field(int)}, SchemaOptions(allow_unknown=True))
        self.assertEqual(lenient.load({"a": 1, "b": 2}), {"a": 1})

    def test_not_a_mapping(self):
        with self.assertRaises(SchemaError):
            PERSON.load(["not", "a", "mapping"])

    def test_factory(self):
        options = schema_options_from_settings({"validation": {"allow_unknown": True, "strip_strings": False}})
        self.assertEqual(Schema({"s": Field(str)}, options).load({"s": " x ", "z": 1}), {"s": " x "})
        self.assertEqual(schema_options_from_settings({}), SchemaOptions())


if __name__ == "__main__":
    unittest.main()
