import unittest
import uuid
from dataclasses import dataclass
from datetime import date, datetime, timezone
from decimal import Decimal

from source import JsonCodec, codec_from_settings


@dataclass
class Line:
    sku: str
    price: Decimal
    tags: frozenset


class JsonCodecTest(unittest.TestCase):
    def setUp(self):
        self.codec = JsonCodec()
        self.codec.register(Line)

    def test_round_trips_rich_types(self):
        value = {
            "when": datetime(2024, 5, 1, 9, 30, tzinfo=timezone.utc),
            "day": date(2024, 5, 1),
            "amount": Decimal("12.50"),
            "id": uuid.UUID("12345678-1234-5678-1234-567812345678"),
            "raw": b"\x00\xff",
            "pair": (1, "a"),
            "seen": {3, 1, 2},
            "nested": [{"d": Decimal("0.1")}],
        }
        self.assertEqual(self.codec.loads(self.codec.dumps(value)), value)

    def test_dataclasses_need_registration(self):
        line = Line("A-1", Decimal("9.99"), frozenset({"x"}))
        text = self.codec.dumps([line])
        self.assertEqual(self.codec.loads(text), [line])
        with self.assertRaises(ValueError):
            JsonCodec().loads(text)

    def test_output_is_deterministic(self):
        self.assertEqual(self.codec.dumps({"b": {2, 1}, "a": 1}), self.codec.dumps({"a": 1, "b": {1, 2}}))

    def test_refusals(self):
        with self.assertRaises(TypeError):
            self.codec.dumps(object())
        with self.assertRaises(ValueError):
            self.codec.dumps({"__type__": "x"})
        with self.assertRaises(ValueError):
            self.codec.loads('{"__type__": "pickle", "value": ""}')
        with self.assertRaises(TypeError):
            self.codec.register(dict)

    def test_factory(self):
        codec = codec_from_settings({"serialization": {"indent": 2, "tag": "$t"}})
        self.assertIn('"$t": "decimal"', codec.dumps(Decimal("1")))
        self.assertIn("\n", codec.dumps({"a": 1}))
        self.assertNotIn("\n", codec_from_settings({}).dumps({"a": 1}))


if __name__ == "__main__":
    unittest.main()
