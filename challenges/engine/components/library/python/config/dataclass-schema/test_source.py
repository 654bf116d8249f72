import unittest
from dataclasses import dataclass, field

from source import SettingsError, TypedLoader, typed_loader_from_settings


@dataclass
class Pool:
    size: int = 5
    timeout: float = 2.5


@dataclass
class Database:
    url: str
    pool: Pool = field(default_factory=Pool)
    replicas: list[str] = field(default_factory=list)


@dataclass
class Settings:
    database: Database
    debug: bool = False
    name: str | None = None
    ports: tuple[int, ...] = (8080,)


class TypedLoaderTest(unittest.TestCase):
    def setUp(self):
        self.loader = TypedLoader(environ={})

    def test_builds_nested_dataclasses_with_conversion(self):
        settings = self.loader.load(Settings, {
            "database": {"url": "sqlite://", "pool": {"size": "10"}, "replicas": "a, b"},
            "debug": "yes",
            "ports": [80, "443"],
        })
        self.assertEqual(settings.database.pool, Pool(size=10, timeout=2.5))
        self.assertEqual(settings.database.replicas, ["a", "b"])
        self.assertIs(settings.debug, True)
        self.assertEqual(settings.ports, (80, 443))
        self.assertIsNone(settings.name)

    def test_errors_name_the_path(self):
        cases = [
            ({"database": {"url": "x", "pool": {"size": "many"}}}, "database.pool.size: expected int"),
            ({"database": {"url": "x", "pool": {"size": 2.5}}}, "database.pool.size: expected a whole number"),
            ({"database": {}}, "database.url: is required"),
            ({"database": {"url": "x", "colour": 1}}, "database.colour: is not a known setting"),
            ({"database": {"url": "x"}, "debug": "perhaps"}, "debug: expected true or false"),
            ({"database": "sqlite://"}, "database: expected a section"),
            ({"database": {"url": "x"}, "ports": [1, "x"]}, "ports[1]: expected int"),
        ]
        for data, message in cases:
            with self.subTest(message=message), self.assertRaises(SettingsError) as caught:
                self.loader.load(Settings, data)
            self.assertIn(message, str(caught.exception))

    def test_extra_keys_can_be_allowed(self):
        loader = TypedLoader(allow_extra=True, environ={})
        self.assertEqual(loader.load(Pool, {"size": 1, "other": 2}), Pool(size=1))

    def test_environment_overrides(self):
        loader = TypedLoader(env_prefix="APP_", environ={"APP_DATABASE_POOL_SIZE": "20", "APP_DEBUG": "on"})
        settings = loader.load(Settings, {"database": {"url": "x"}})
        self.assertEqual(settings.database.pool.size, 20)
        self.assertTrue(settings.debug)

    def test_not_a_dataclass(self):
        with self.assertRaises(TypeError):
            self.loader.load(dict, {})

    def test_factory(self):
        loader = typed_loader_from_settings({"config": {"allow_extra": True, "env_prefix": "SVC_"}}, environ={})
        self.assertEqual((loader.allow_extra, loader.env_prefix), (True, "SVC_"))
        self.assertFalse(typed_loader_from_settings({}, environ={}).allow_extra)


if __name__ == "__main__":
    unittest.main()
