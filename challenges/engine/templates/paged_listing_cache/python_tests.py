"""Python visible and hidden tests of the paged-listing-cache template."""

GUARD_HAS_MORE = "test_last_page_reports_nothing_more"
GUARD_TTL = "test_cache_entry_expires_at_ttl"
GUARD_PAGE = "test_page_numbers_start_at_zero"
HERRING_TEST = "test_last_page_boundary_after_reassignment"

CLOCK = '''

class FakeClock:
    def __init__(self, now=0.0):
        self.now = now

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds
'''

TEST_PAGINATION = '''import unittest

{{imports}}


class PaginateTest(unittest.TestCase):
    def setUp(self):
        self.rows = list(range(7))

    def test_first_page(self):
        page = paginate(self.rows, 0, 3)
        self.assertEqual(page.items, (0, 1, 2))
        self.assertTrue(page.has_more)
        self.assertEqual(page.next_offset, 3)

    def test_last_partial_page(self):
        page = paginate(self.rows, 6, 3)
        self.assertEqual(page.items, (6,))
        self.assertFalse(page.has_more)
        self.assertIsNone(page.next_offset)

    def test_offset_past_end_is_empty(self):
        page = paginate(self.rows, 10, 3)
        self.assertEqual(page.items, ())
        self.assertEqual(page.total, 7)

    def test_negative_offset_is_rejected(self):
        with self.assertRaises({{ErrInvalid}}):
            paginate(self.rows, -1, 3)


class ClampLimitTest(unittest.TestCase):
    def test_default_when_unset(self):
        self.assertEqual(clamp_limit(None, 20, 100), 20)

    def test_capped_at_maximum(self):
        self.assertEqual(clamp_limit(500, 20, 100), 100)

    def test_zero_is_rejected(self):
        with self.assertRaises({{ErrInvalid}}):
            clamp_limit(0, 20, 100)
'''

TEST_CACHE = '''import unittest

{{imports}}
''' + CLOCK + '''

class PageCacheTest(unittest.TestCase):
    def setUp(self):
        self.clock = FakeClock()
        self.cache = {{CacheCls}}(ttl=30, max_entries=3, clock=self.clock)

    def test_hit_after_put(self):
        self.cache.put("{{owner_a_lc}}:*:0:2", "page")
        self.assertEqual(self.cache.get("{{owner_a_lc}}:*:0:2"), "page")
        self.assertEqual(self.cache.stats()["hits"], 1)

    def test_miss_is_counted(self):
        self.assertIsNone(self.cache.get("missing"))
        self.assertEqual(self.cache.stats()["misses"], 1)

    def test_entry_expires_after_ttl(self):
        self.cache.put("key", "value")
        self.clock.advance(31)
        self.assertIsNone(self.cache.get("key"))

    def test_least_recently_used_entry_is_evicted(self):
        for key in ("a", "b", "c"):
            self.cache.put(key, key.upper())
        self.cache.get("a")
        self.cache.put("d", "D")
        self.assertIsNone(self.cache.get("b"))
        self.assertEqual(self.cache.get("a"), "A")

    def test_invalidate_prefix_only_drops_matching_keys(self):
        self.cache.put("{{owner_a_lc}}:*:0:2", 1)
        self.cache.put("{{owner_a_lc}}:*:2:2", 2)
        self.cache.put("{{owner_b_lc}}:*:0:2", 3)
        self.assertEqual(self.cache.invalidate_prefix("{{owner_a_lc}}:"), 2)
        self.assertEqual(len(self.cache), 1)

    def test_rejects_non_positive_ttl(self):
        with self.assertRaises(ValueError):
            {{CacheCls}}(ttl=0, max_entries=3)
'''

TEST_SERVICE = '''import unittest

{{imports}}
''' + CLOCK + '''

CATEGORY = "{{cat0}}"


class ListingServiceTest(unittest.TestCase):
    def setUp(self):
        self.clock = FakeClock(1000)
        self.service = build_service(Settings(page_size=2, max_page_size=5), clock=self.clock)

    def add(self, {{owner}}, {{label_f}}, {{qty_f}}=1):
        self.clock.advance(1)
        return self.service.{{fn_register}}({{owner}}, {{label_f}}, {{qty_f}}, 100, CATEGORY)

    def test_register_assigns_sequential_{{id_f}}s(self):
        first = self.add("{{owner_a_lc}}", "first")
        second = self.add("{{owner_a_lc}}", "second")
        self.assertTrue(first.{{id_f}}.startswith("{{id_prefix}}-"))
        self.assertNotEqual(first.{{id_f}}, second.{{id_f}})

    def test_register_rejects_unknown_{{cat_f}}(self):
        with self.assertRaises({{ErrInvalid}}):
            self.service.{{fn_register}}("{{owner_a_lc}}", "odd", 1, 100, "unknown")

    def test_listing_is_served_from_cache(self):
        self.add("{{owner_a_lc}}", "one")
        first = self.service.{{fn_list}}("{{owner_a_lc}}")
        self.assertIs(self.service.{{fn_list}}("{{owner_a_lc}}"), first)

    def test_listing_uses_default_page_size(self):
        for n in range(3):
            self.add("{{owner_a_lc}}", f"item {n}")
        page = self.service.{{fn_list}}("{{owner_a_lc}}")
        self.assertEqual(len(page.items), 2)
        self.assertEqual(page.next_offset, 2)

    def test_new_{{entity}}_appears_in_cached_listing(self):
        self.add("{{owner_a_lc}}", "one")
        self.assertEqual(self.service.{{fn_list}}("{{owner_a_lc}}").total, 1)
        self.add("{{owner_a_lc}}", "two")
        self.assertEqual(self.service.{{fn_list}}("{{owner_a_lc}}").total, 2)

    def test_advancing_{{status_f}}_refreshes_filtered_listing(self):
        record = self.add("{{owner_a_lc}}", "one")
        self.assertEqual(self.service.{{fn_list}}("{{owner_a_lc}}", status="{{status1}}").items, ())
        self.service.{{fn_advance}}(record.{{id_f}}, "{{status1}}")
        page = self.service.{{fn_list}}("{{owner_a_lc}}", status="{{status1}}")
        self.assertEqual([item.{{id_f}} for item in page.items], [record.{{id_f}}])

    def test_{{status_f}}_cannot_skip_a_step(self):
        record = self.add("{{owner_a_lc}}", "one")
        with self.assertRaises({{ErrConflict}}):
            self.service.{{fn_advance}}(record.{{id_f}}, "{{status2}}")

    def test_{{fn_cancel}}_removes_from_listing(self):
        record = self.add("{{owner_a_lc}}", "one")
        self.assertEqual(self.service.{{fn_list}}("{{owner_a_lc}}").total, 1)
        self.service.{{fn_cancel}}(record.{{id_f}})
        self.assertEqual(self.service.{{fn_list}}("{{owner_a_lc}}").total, 0)

    def test_{{fn_transfer}}_lists_record_under_new_{{owner}}(self):
        record = self.add("{{owner_a_lc}}", "one")
        self.service.{{fn_transfer}}(record.{{id_f}}, "{{owner_b_lc}}")
        page = self.service.{{fn_list}}("{{owner_b_lc}}")
        self.assertEqual([item.{{id_f}} for item in page.items], [record.{{id_f}}])

    def test_counts_follow_{{status_f}}_changes(self):
        record = self.add("{{owner_a_lc}}", "one")
        self.add("{{owner_a_lc}}", "two")
        self.service.{{fn_advance}}(record.{{id_f}}, "{{status1}}")
        counts = self.service.{{fn_counts}}("{{owner_a_lc}}")
        self.assertEqual((counts["{{status0}}"], counts["{{status1}}"]), (1, 1))
        self.assertEqual(sum(counts.values()), 2)

    def test_unknown_{{id_f}}_is_reported(self):
        with self.assertRaises({{ErrMissing}}):
            self.service.{{fn_get}}("{{id_prefix}}-99999")
'''

HERRING_TEST_TEXT = '''

class ListingPaginationTest(unittest.TestCase):
    def setUp(self):
        self.clock = FakeClock(1000)
        self.service = build_service(Settings(page_size=2, max_page_size=5), clock=self.clock)

    def test_last_page_boundary_after_reassignment(self):
        for n in range(3):
            self.clock.advance(1)
            self.service.{{fn_register}}("{{owner_a}}", f"item {n}", 1, 100, CATEGORY)
        last = self.service.{{fn_list}}("{{owner_a}}", offset=2, limit=2)
        self.assertEqual(len(last.items), 1)
        self.service.{{fn_transfer}}(last.items[0].{{id_f}}, "{{owner_b}}")
        self.assertEqual(self.service.{{fn_list}}("{{owner_a}}", offset=2, limit=2).items, ())
        self.assertEqual(self.service.{{fn_list}}("{{owner_a}}", offset=0, limit=2).total, 2)
'''

TEST_HANDLERS = '''import unittest

{{imports}}


class HandlerTest(unittest.TestCase):
    def setUp(self):
        self.service = build_service(Settings(page_size=2, max_page_size=5), clock=lambda: 1000)

    def register(self, {{label_f}}):
        return handle_register(self.service, {
            "{{owner}}": "{{owner_a_lc}}",
            "{{label_f}}": {{label_f}},
            "{{qty_f}}": "2",
            "{{amount_f}}": "1500",
            "{{cat_f}}": "{{cat0}}",
        })

    def test_register_returns_created(self):
        status, payload = self.register("{{label_a}}")
        self.assertEqual(status, 201)
        self.assertEqual(payload["{{status_f}}"], "{{status0}}")

    def test_register_rejects_blank_{{label_f}}(self):
        status, payload = self.register("  ")
        self.assertEqual(status, 400)
        self.assertEqual(payload["error"]["code"], "invalid")

    def test_list_second_page(self):
        for name in ("a", "b", "c"):
            self.register(name)
        status, payload = handle_list(self.service, "{{owner_a_lc}}", {{q_second}})
        self.assertEqual(status, 200)
        self.assertEqual(len(payload["items"]), 1)
        self.assertIsNone(payload["next_offset"])

    def test_list_rejects_non_numeric_limit(self):
        status, payload = handle_list(self.service, "{{owner_a_lc}}", {"limit": "many"})
        self.assertEqual(status, 400)
        self.assertIn("limit", payload["error"]["message"])

    def test_get_unknown_is_not_found(self):
        status, _payload = handle_get(self.service, "{{id_prefix}}-00404")
        self.assertEqual(status, 404)

    def test_{{fn_transfer}}_requires_{{owner}}(self):
        _status, created = self.register("{{label_a}}")
        status, _payload = handle_transfer(self.service, created["{{id_f}}"], {})
        self.assertEqual(status, 400)
'''

HIDDEN_TRANSFERS = '''import unittest

{{imports}}
''' + CLOCK + '''

OWNER_A = "{{owner_a}}"
OWNER_B = "{{owner_b}}"
CATEGORY = "{{cat0}}"


class {{Owner}}ChangeTest(unittest.TestCase):
    def setUp(self):
        self.clock = FakeClock(5000)
        self.service = build_service(Settings(page_size=2, max_page_size=10), clock=self.clock)

    def add(self, {{owner}}, {{label_f}}):
        self.clock.advance(1)
        return self.service.{{fn_register}}({{owner}}, {{label_f}}, 3, 250, CATEGORY)

    def ids(self, {{owner}}, **options):
        page = self.service.{{fn_list}}({{owner}}, limit=10, **options)
        return [item.{{id_f}} for item in page.items]

    def test_previous_{{owner}}_listing_drops_moved_record(self):
        first = self.add(OWNER_A, "one")
        second = self.add(OWNER_A, "two")
        third = self.add(OWNER_A, "three")
        self.assertEqual(self.ids(OWNER_A), [first.{{id_f}}, second.{{id_f}}, third.{{id_f}}])
        self.service.{{fn_transfer}}(second.{{id_f}}, OWNER_B)
        self.assertEqual(self.ids(OWNER_A), [first.{{id_f}}, third.{{id_f}}])

    def test_previous_{{owner}}_pages_shrink(self):
        for n in range(5):
            self.add(OWNER_A, f"item {n}")
        head = self.service.{{fn_list}}(OWNER_A, offset=0, limit=2)
        self.assertEqual(len(self.service.{{fn_list}}(OWNER_A, offset=4, limit=2).items), 1)
        self.service.{{fn_transfer}}(head.items[0].{{id_f}}, OWNER_B)
        self.assertEqual(self.service.{{fn_list}}(OWNER_A, offset=0, limit=2).total, 4)
        self.assertEqual(self.service.{{fn_list}}(OWNER_A, offset=4, limit=2).items, ())

    def test_new_{{owner}}_listing_gains_moved_record(self):
        kept = self.add(OWNER_B, "kept")
        self.assertEqual(self.ids(OWNER_B), [kept.{{id_f}}])
        moved = self.add(OWNER_A, "moved")
        self.service.{{fn_transfer}}(moved.{{id_f}}, OWNER_B)
        self.assertEqual(self.ids(OWNER_B), [kept.{{id_f}}, moved.{{id_f}}])
        self.assertEqual(self.service.{{fn_get}}(moved.{{id_f}}).{{owner}}, OWNER_B)

    def test_move_to_same_{{owner}}_changes_nothing(self):
        record = self.add(OWNER_A, "steady")
        self.clock.advance(10)
        result = self.service.{{fn_transfer}}(record.{{id_f}}, "  " + OWNER_A.upper() + " ")
        self.assertEqual(result, record)
        self.assertEqual(self.service.{{fn_get}}(record.{{id_f}}), record)

    def test_{{entity}}_for_a_padded_{{owner}}_name_is_listed_at_once(self):
        first = self.add(OWNER_A, "one")
        self.assertEqual(self.ids(OWNER_A), [first.{{id_f}}])
        second = self.add(" " + OWNER_A + "  ", "two")
        self.assertEqual(self.ids(OWNER_A), [first.{{id_f}}, second.{{id_f}}])

    def test_blank_{{owner}}_is_rejected(self):
        record = self.add(OWNER_A, "one")
        with self.assertRaises({{ErrInvalid}}):
            self.service.{{fn_transfer}}(record.{{id_f}}, "   ")
        self.assertEqual(self.service.{{fn_get}}(record.{{id_f}}).{{owner}}, OWNER_A)

    def test_unknown_record_cannot_move(self):
        with self.assertRaises({{ErrMissing}}):
            self.service.{{fn_transfer}}("{{id_prefix}}-77777", OWNER_B)

    def test_{{status_f}}_change_shows_in_filtered_listing(self):
        record = self.add(OWNER_A, "one")
        self.assertEqual(self.ids(OWNER_A, status="{{status1}}"), [])
        self.service.{{fn_advance}}(record.{{id_f}}, "{{status1}}")
        self.assertEqual(self.ids(OWNER_A, status="{{status1}}"), [record.{{id_f}}])

    def test_{{status_f}}_filters_keep_separate_pages(self):
        first = self.add(OWNER_A, "one")
        second = self.add(OWNER_A, "two")
        self.service.{{fn_advance}}(first.{{id_f}}, "{{status1}}")
        self.assertEqual(self.ids(OWNER_A, status="{{status0}}"), [second.{{id_f}}])
        self.assertEqual(self.ids(OWNER_A, status="{{status1}}"), [first.{{id_f}}])
        self.assertEqual(self.ids(OWNER_A, status="{{status2}}"), [])
        self.assertEqual(len(self.ids(OWNER_A)), 2)

    def test_{{fn_cancel}}_drops_record_from_listing(self):
        record = self.add(OWNER_A, "one")
        self.assertEqual(self.ids(OWNER_A), [record.{{id_f}}])
        self.service.{{fn_cancel}}(record.{{id_f}})
        self.assertEqual(self.ids(OWNER_A), [])


class {{Owner}}ChangeHandlerTest(unittest.TestCase):
    def test_listing_after_move_through_handlers(self):
        clock = FakeClock(100)
        service = build_service(Settings(page_size=2, max_page_size=10), clock=clock)
        created = []
        for name in ("north", "south"):
            clock.advance(1)
            status, payload = handle_register(service, {
                "{{owner}}": OWNER_A, "{{label_f}}": name, "{{qty_f}}": "1",
                "{{amount_f}}": "10", "{{cat_f}}": CATEGORY,
            })
            self.assertEqual(status, 201)
            created.append(payload["{{id_f}}"])
        status, before = handle_list(service, OWNER_A, {{q_first_10}})
        self.assertEqual([item["{{id_f}}"] for item in before["items"]], created)
        status, moved = handle_transfer(service, created[0], {"{{owner}}": OWNER_B})
        self.assertEqual(status, 200)
        self.assertEqual(moved["{{owner}}"], OWNER_B)
        status, after = handle_list(service, OWNER_A, {{q_first_10}})
        self.assertEqual([item["{{id_f}}"] for item in after["items"]], created[1:])
        status, theirs = handle_list(service, OWNER_B, {{q_first_10}})
        self.assertEqual([item["{{id_f}}"] for item in theirs["items"]], created[:1])
'''

HIDDEN_RULES = '''import json
import tempfile
import unittest
from pathlib import Path

{{imports}}
''' + CLOCK + '''

class ListingRulesTest(unittest.TestCase):
    def test_last_page_reports_nothing_more(self):
        page = paginate(list(range(4)), 2, 2)
        self.assertEqual(page.items, (2, 3))
        self.assertFalse(page.has_more)
        self.assertIsNone(page.next_offset)
        self.assertTrue(paginate(list(range(4)), 0, 2).has_more)
        self.assertTrue(paginate(list(range(5)), 2, 2).has_more)

    def test_pages_cover_every_record_once(self):
        rows = list(range(9))
        seen = []
        offset = 0
        for _ in range(len(rows)):
            page = paginate(rows, offset, 4)
            seen.extend(page.items)
            offset = page.next_offset
            if offset is None:
                break
        self.assertEqual(seen, rows)
        self.assertIsNone(offset)

    def test_cache_entry_expires_at_ttl(self):
        clock = FakeClock()
        cache = {{CacheCls}}(ttl=30, max_entries=4, clock=clock)
        cache.put("key", 1)
        clock.advance(29.5)
        self.assertEqual(cache.get("key"), 1)
        cache.put("key", 2)
        clock.advance(30)
        self.assertIsNone(cache.get("key"))

    def test_settings_file_is_read_and_checked(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "settings.json"
            path.write_text(json.dumps({"page_size": 7, "cache_ttl_seconds": 5}), encoding="utf-8")
            settings = load_settings(path)
            self.assertEqual((settings.page_size, settings.cache_ttl_seconds), (7, 5))
            path.write_text(json.dumps({"page_sise": 7}), encoding="utf-8")
            with self.assertRaises({{ErrInvalid}}):
                load_settings(path)
'''

HIDDEN_PAGE_GUARD = '''

class PageNumberTest(unittest.TestCase):
    def test_page_numbers_start_at_zero(self):
        service = build_service(Settings(page_size=2, max_page_size=10), clock=FakeClock(10))
        created = [
            service.{{fn_register}}("{{owner_a}}", name, 1, 10, "{{cat0}}").{{id_f}}
            for name in ("one", "two", "three")
        ]
        status, first = handle_list(service, "{{owner_a}}", {"page": "0", "limit": "2"})
        self.assertEqual(status, 200)
        self.assertEqual([item["{{id_f}}"] for item in first["items"]], created[:2])
        status, second = handle_list(service, "{{owner_a}}", {"page": "1", "limit": "2"})
        self.assertEqual([item["{{id_f}}"] for item in second["items"]], created[2:])
'''
