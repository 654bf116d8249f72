import io
import json
import logging
import unittest

from source import ContextLogger, JsonFormatter, configure_logging


class JsonLoggingTest(unittest.TestCase):
    def setUp(self):
        self.stream = io.StringIO()
        self.log = configure_logging({"logging": {"logger": "tests.structured", "level": "debug",
                                                  "static_fields": {"service": "billing"}}}, self.stream)

    def lines(self):
        return [json.loads(line) for line in self.stream.getvalue().splitlines()]

    def test_one_json_object_per_record(self):
        self.log.info("started", port=8080)
        (line,) = self.lines()
        self.assertEqual(line["message"], "started")
        self.assertEqual(line["level"], "info")
        self.assertEqual(line["port"], 8080)
        self.assertEqual(line["service"], "billing")
        self.assertEqual(line["logger"], "tests.structured")
        self.assertTrue(line["time"].endswith("+00:00"))

    def test_bound_context_is_repeated(self):
        request = self.log.bind(request_id="r-1")
        request.debug("parsed")
        request.bind(user="ada").warning("slow", ms=900)
        first, second = self.lines()
        self.assertEqual(first["request_id"], "r-1")
        self.assertEqual((second["request_id"], second["user"], second["ms"]), ("r-1", "ada", 900))
        self.assertNotIn("user", first)

    def test_exceptions_are_included(self):
        try:
            raise KeyError("missing")
        except KeyError:
            self.log.exception("lookup failed")
        self.assertIn("KeyError", self.lines()[0]["exception"])

    def test_reserved_names_are_refused(self):
        with self.assertRaises(ValueError):
            self.log.info("x", msg="clash")
        with self.assertRaises(ValueError):
            ContextLogger(logging.getLogger("x"), {"levelname": "no"})

    def test_reconfiguring_does_not_duplicate_output(self):
        again = configure_logging({"logging": {"logger": "tests.structured"}}, self.stream)
        again.info("once")
        self.assertEqual(len(self.lines()), 1)

    def test_formatter_alone(self):
        record = logging.makeLogRecord({"msg": "hello %s", "args": ("you",), "levelname": "INFO", "name": "n"})
        self.assertEqual(json.loads(JsonFormatter({"env": "test"}).format(record))["message"], "hello you")

    def test_defaults(self):
        log = configure_logging({}, io.StringIO())
        self.assertEqual(log.logger.name, "app")
        self.assertFalse(log.logger.propagate)


if __name__ == "__main__":
    unittest.main()
