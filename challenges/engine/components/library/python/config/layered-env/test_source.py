import json
import tempfile
import unittest
from pathlib import Path

from source import LayeredOptions, options_from_settings

DEFAULTS = {"workers": 2, "debug": False, "ratio": 0.5, "hosts": ["a"], "name": "svc"}


class LayeredOptionsTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.file = Path(self.tmp.name) / "local.json"

    def tearDown(self):
        self.tmp.cleanup()

    def test_defaults_only(self):
        options = LayeredOptions(DEFAULTS, self.file, environ={})
        self.assertEqual(options.as_dict(), DEFAULTS)
        self.assertEqual(options.source("workers"), "default")

    def test_file_then_environment(self):
        self.file.write_text(json.dumps({"workers": 3, "name": "from-file"}))
        env = {"APP_WORKERS": "8", "APP_DEBUG": "on", "APP_RATIO": "0.25", "APP_HOSTS": "x, y"}
        options = LayeredOptions(DEFAULTS, self.file, environ=env)
        self.assertEqual(options["workers"], 8)
        self.assertIs(options["debug"], True)
        self.assertEqual(options["ratio"], 0.25)
        self.assertEqual(options["hosts"], ["x", "y"])
        self.assertEqual(options["name"], "from-file")
        self.assertEqual(options.source("workers"), "$APP_WORKERS")
        self.assertEqual(options.source("name"), str(self.file))
        self.assertIn("workers = 8 ($APP_WORKERS)", options.describe())

    def test_bad_values_name_their_origin(self):
        with self.assertRaisesRegex(ValueError, "APP_DEBUG"):
            LayeredOptions(DEFAULTS, environ={"APP_DEBUG": "perhaps"})
        with self.assertRaisesRegex(ValueError, "APP_WORKERS"):
            LayeredOptions(DEFAULTS, environ={"APP_WORKERS": "many"})
        self.file.write_text(json.dumps({"colour": "red"}))
        with self.assertRaisesRegex(ValueError, "unknown options colour"):
            LayeredOptions(DEFAULTS, self.file, environ={})
        self.file.write_text("{broken")
        with self.assertRaisesRegex(ValueError, "not valid JSON"):
            LayeredOptions(DEFAULTS, self.file, environ={})

    def test_factory(self):
        self.file.write_text(json.dumps({"workers": 5}))
        options = options_from_settings({"config": {"file": str(self.file), "env_prefix": "SVC_"}}, DEFAULTS,
                                        environ={"SVC_NAME": "env"})
        self.assertEqual((options["workers"], options["name"]), (5, "env"))
        self.assertEqual(options_from_settings({}, environ={}).as_dict(), {})


if __name__ == "__main__":
    unittest.main()
