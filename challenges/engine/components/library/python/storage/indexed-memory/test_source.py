import unittest

from source import RecordStore, UniqueViolation, record_store_from_settings


class RecordStoreTest(unittest.TestCase):
    def setUp(self):
        self.store = RecordStore(indexes=["status"], unique=["email"])
        self.ada = self.store.insert({"email": "ada@example.org", "status": "open", "tags": ["x"]})
        self.bob = self.store.insert({"email": "bob@example.org", "status": "closed"})
        self.cy = self.store.insert({"email": "cy@example.org", "status": "open", "team": "red"})

    def test_ids_are_assigned(self):
        self.assertEqual([self.ada["id"], self.bob["id"], self.cy["id"]], [1, 2, 3])
        with self.assertRaises(ValueError):
            self.store.insert({"id": 9})

    def test_find_by_index_and_plain_fields(self):
        self.assertEqual([r["id"] for r in self.store.find(status="open")], [1, 3])
        self.assertEqual([r["id"] for r in self.store.find(status="open", team="red")], [3])
        self.assertEqual([r["id"] for r in self.store.find(team="red")], [3])
        self.assertEqual(self.store.find(status="archived"), [])
        self.assertEqual(self.store.find_one(email="bob@example.org")["id"], 2)

    def test_unique_fields(self):
        with self.assertRaises(UniqueViolation) as caught:
            self.store.insert({"email": "ada@example.org"})
        self.assertEqual(caught.exception.field, "email")
        with self.assertRaises(UniqueViolation):
            self.store.update(2, email="ada@example.org")
        self.store.update(1, email="ada@example.org", status="closed")

    def test_update_moves_index_entries(self):
        self.store.update(1, status="closed")
        self.assertEqual(self.store.counts("status"), {"open": 1, "closed": 2})
        self.assertEqual([r["id"] for r in self.store.find(status="closed")], [1, 2])
        with self.assertRaises(KeyError):
            self.store.update(99, status="x")

    def test_delete_cleans_indexes(self):
        self.assertTrue(self.store.delete(2))
        self.assertFalse(self.store.delete(2))
        self.assertEqual(self.store.counts("status"), {"open": 2})
        self.store.insert({"email": "bob@example.org"})

    def test_records_are_copies(self):
        fetched = self.store.get(1)
        fetched["tags"].append("y")
        fetched["status"] = "gone"
        self.assertEqual(self.store.get(1)["tags"], ["x"])
        self.assertEqual(self.store.find(status="gone"), [])

    def test_limits_and_errors(self):
        small = RecordStore(max_records=1)
        small.insert({})
        with self.assertRaises(OverflowError):
            small.insert({})
        with self.assertRaises(KeyError):
            self.store.counts("team")

    def test_factory(self):
        store = record_store_from_settings({"storage": {"indexes": ["kind"], "unique": [], "max_records": 2}})
        self.assertEqual((store.indexed, store.max_records), (frozenset({"kind"}), 2))
        self.assertEqual(record_store_from_settings({}).unique, frozenset({"email"}))


if __name__ == "__main__":
    unittest.main()
