import tempfile
import unittest
from pathlib import Path

from source import IniConfig, Section, ini_config_from_settings

TEXT = """
[server]
port = 8080
debug = yes
timeout = 5m
ratio = 0.75
hosts = a.example, b.example
token = ${API_TOKEN}
region = ${REGION:-eu-west}

[empty]
"""


class IniConfigTest(unittest.TestCase):
    def setUp(self):
        self.config = IniConfig(TEXT, environ={"API_TOKEN": "s3cret"})
        self.server = self.config.section("server")

    def test_typed_values(self):
        self.assertEqual(self.server.integer("port"), 8080)
        self.assertIs(self.server.boolean("debug"), True)
        self.assertEqual(self.server.seconds("timeout"), 300)
        self.assertEqual(self.server.number("ratio"), 0.75)
        self.assertEqual(self.server.items("hosts"), ["a.example", "b.example"])

    def test_environment_references(self):
        self.assertEqual(self.server.text("token"), "s3cret")
        self.assertEqual(self.server.text("region"), "eu-west")
        unset = IniConfig(TEXT, environ={}).section("server")
        with self.assertRaisesRegex(ValueError, r"\[server\] token: environment variable API_TOKEN is not set"):
            unset.text("token")
        literal = IniConfig(TEXT, allow_env=False).section("server")
        self.assertEqual(literal.text("token"), "${API_TOKEN}")

    def test_errors_name_section_and_key(self):
        with self.assertRaisesRegex(ValueError, r"\[server\] debug: expected an integer"):
            self.server.integer("debug")
        with self.assertRaisesRegex(ValueError, r"\[server\] missing is required"):
            self.server.text("missing")
        with self.assertRaisesRegex(ValueError, r"section \[db\] is required"):
            self.config.section("db", required=True)

    def test_defaults(self):
        self.assertEqual(self.server.integer("workers", 4), 4)
        self.assertIsInstance(self.config.section("db"), Section)
        self.assertEqual(self.config.sections(), ["empty", "server"])

    def test_malformed_file(self):
        with self.assertRaises(ValueError):
            IniConfig("no section header")

    def test_factory(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "app.ini"
            path.write_text("[jobs]\nworkers = 3\n")
            config = ini_config_from_settings({"config": {"path": str(path)}}, environ={})
            self.assertEqual(config.section("jobs").integer("workers"), 3)
            self.assertEqual(ini_config_from_settings({"config": {"path": str(Path(tmp) / "none.ini")}}).sections(), [])


if __name__ == "__main__":
    unittest.main()
