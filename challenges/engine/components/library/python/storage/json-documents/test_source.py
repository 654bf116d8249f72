import json
import tempfile
import unittest
from pathlib import Path

from source import DocumentStore, VersionConflict, document_store_from_settings


class DocumentStoreTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.store = DocumentStore(self.tmp.name, fsync=False)

    def tearDown(self):
        self.tmp.cleanup()

    def test_put_get_round_trip(self):
        stored = self.store.put("users", "ada", {"name": "Ada"})
        self.assertEqual(stored, {"name": "Ada", "_version": 1})
        self.assertEqual(self.store.get("users", "ada"), stored)
        self.assertIsNone(self.store.get("users", "bob"))

    def test_versions_increase_and_conflicts_are_refused(self):
        self.store.put("users", "ada", {"n": 1})
        self.store.put("users", "ada", {"n": 2}, expected_version=1)
        with self.assertRaises(VersionConflict) as caught:
            self.store.put("users", "ada", {"n": 3}, expected_version=1)
        self.assertEqual((caught.exception.expected, caught.exception.actual), (1, 2))
        self.assertEqual(self.store.get("users", "ada")["n"], 2)

    def test_update_merges(self):
        self.store.put("users", "ada", {"name": "Ada", "age": 36})
        self.assertEqual(self.store.update("users", "ada", {"age": 37}), {"name": "Ada", "age": 37, "_version": 2})
        with self.assertRaises(KeyError):
            self.store.update("users", "nobody", {})

    def test_no_temporary_files_are_left(self):
        self.store.put("users", "ada", {"x": 1})
        self.store.put("users", "ada", {"x": 2})
        names = [p.name for p in (Path(self.tmp.name) / "users").iterdir()]
        self.assertEqual(names, ["ada.json"])
        self.assertEqual(json.loads((Path(self.tmp.name) / "users" / "ada.json").read_text())["x"], 2)

    def test_failed_write_keeps_the_old_document(self):
        self.store.put("users", "ada", {"x": 1})
        with self.assertRaises(TypeError):
            self.store.put("users", "ada", {"x": object()})
        self.assertEqual(self.store.get("users", "ada")["x"], 1)
        self.assertEqual(self.store.keys("users"), ["ada"])

    def test_keys_scan_delete(self):
        self.store.put("users", "b", {"team": "red"})
        self.store.put("users", "a", {"team": "blue"})
        self.store.put("users", "c", {"team": "red"})
        self.assertEqual(self.store.keys("users"), ["a", "b", "c"])
        self.assertEqual([k for k, _ in self.store.scan("users", team="red")], ["b", "c"])
        self.assertTrue(self.store.delete("users", "b"))
        self.assertFalse(self.store.delete("users", "b"))
        self.assertEqual(self.store.keys("missing"), [])

    def test_keys_cannot_escape_the_directory(self):
        for bad in ("../x", "a/b", "", ".."):
            with self.subTest(bad=bad), self.assertRaises(ValueError):
                self.store.get("users", bad)

    def test_factory(self):
        store = document_store_from_settings({"storage": {"directory": self.tmp.name, "indent": None}})
        self.assertEqual(store.root, Path(self.tmp.name))
        self.assertEqual(document_store_from_settings({}).root, Path("var/documents"))


if __name__ == "__main__":
    unittest.main()
