"""Python visible and hidden tests of the rate-limiter template."""

CLOCK = '''

class FakeClock:
    def __init__(self, now=0.0):
        self.now = now

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds
'''

TEST_LIMITER = '''import unittest

{{imports}}
''' + CLOCK + '''

class {{LimiterTitle}}Test(unittest.TestCase):
    def setUp(self):
        self.clock = FakeClock(1000.0)
        self.limiter = {{new_limiter}}(limit=3, window=60, clock=self.clock)

    def test_first_requests_are_admitted(self):
        for _ in range(3):
            self.assertTrue(self.limiter.acquire("{{owner_a_key}}").allowed)

    def test_admitted_decision_has_no_wait(self):
        decision = self.limiter.acquire("{{owner_a_key}}")
        self.assertEqual(decision.retry_after, 0.0)

    def test_available_counts_recent_requests(self):
        self.limiter.acquire("{{owner_a_key}}")
        self.limiter.acquire("{{owner_a_key}}")
        self.assertEqual(self.limiter.available("{{owner_a_key}}"), 1)
        self.assertEqual(self.limiter.available("{{owner_b_key}}"), 3)

    def test_requests_stop_counting_once_old(self):
        for _ in range(3):
            self.limiter.acquire("{{owner_a_key}}")
        self.clock.advance(120)
        self.assertEqual(self.limiter.available("{{owner_a_key}}"), 3)
        self.assertTrue(self.limiter.acquire("{{owner_a_key}}").allowed)

    def test_forget_clears_a_key(self):
        self.limiter.acquire("{{owner_a_key}}")
        self.limiter.forget("{{owner_a_key}}")
        self.assertEqual(self.limiter.available("{{owner_a_key}}"), 3)
        self.assertEqual(self.limiter.keys(), [])

    def test_rejects_bad_configuration(self):
        with self.assertRaises(ValueError):
            {{new_limiter}}(limit=0, window=60, clock=self.clock)
        with self.assertRaises(ValueError):
            {{new_limiter}}(limit=3, window=0, clock=self.clock)
'''

TEST_SERVICE = '''import unittest

{{imports}}
''' + CLOCK + '''

CATEGORY = "{{cat0}}"


def make_service(clock, limit=3, window=60):
    return build_service(Settings(requests_per_window=limit, window_seconds=window), clock=clock)


class {{SvcCls}}Test(unittest.TestCase):
    def setUp(self):
        self.clock = FakeClock(500.0)
        self.service = make_service(self.clock)

    def test_submit_assigns_sequential_{{id_f}}s(self):
        first, _ = self.service.{{fn_submit}}("{{owner_a}}", "{{label_a}}", 2, CATEGORY)
        second, _ = self.service.{{fn_submit}}("{{owner_a}}", "{{label_b}}", 1, CATEGORY)
        self.assertEqual(first.{{id_f}}, "{{id_prefix}}-00001")
        self.assertEqual(second.{{id_f}}, "{{id_prefix}}-00002")
        self.assertEqual(first.{{status_f}}, "{{status0}}")

    def test_submit_strips_{{label_f}}(self):
        record, _ = self.service.{{fn_submit}}("{{owner_a}}", "  {{label_a}} ", 1, CATEGORY)
        self.assertEqual(record.{{label_f}}, "{{label_a}}")

    def test_rejects_non_positive_{{qty_f}}(self):
        with self.assertRaises({{ErrInvalid}}):
            self.service.{{fn_submit}}("{{owner_a}}", "{{label_a}}", 0, CATEGORY)

    def test_rejects_unknown_{{cat_f}}(self):
        with self.assertRaises({{ErrInvalid}}):
            self.service.{{fn_submit}}("{{owner_a}}", "{{label_a}}", 1, "unheard_of")

    def test_rejects_blank_{{owner}}(self):
        with self.assertRaises({{ErrInvalid}}):
            self.service.{{fn_submit}}("  ", "{{label_a}}", 1, CATEGORY)

    def test_quota_view_ignores_{{owner}}_case(self):
        self.service.{{fn_submit}}("{{owner_a}}", "{{label_a}}", 1, CATEGORY)
        quota = self.service.quota(" {{owner_a_upper}} ")
        self.assertEqual(quota["accepted"], 1)
        self.assertEqual(quota["available"], 2)
        self.assertEqual(quota["limit"], 3)

    def test_unknown_{{id_f}}_is_reported(self):
        with self.assertRaises({{ErrMissing}}):
            self.service.{{fn_get}}("{{id_prefix}}-09999")
'''

HERRING_TEST = '''

class {{Entity}}NumberingTest(unittest.TestCase):
    def test_{{id_f}}_sequence_continues_after_quiet_period(self):
        clock = FakeClock(0.0)
        service = make_service(clock, limit=2, window=30)
        with self.assertRaises({{ErrInvalid}}):
            service.{{fn_submit}}("{{owner_b}}", "{{label_a}}", 0, CATEGORY)
        service.{{fn_submit}}("{{owner_b}}", "{{label_a}}", 1, CATEGORY)
        service.{{fn_submit}}("{{owner_b}}", "{{label_b}}", 1, CATEGORY)
        with self.assertRaises({{ErrLimited}}):
            service.{{fn_submit}}("{{owner_b}}", "{{label_c}}", 1, CATEGORY)
        clock.advance(30)
        record, _ = service.{{fn_submit}}("{{owner_b}}", "{{label_c}}", 1, CATEGORY)
        self.assertEqual(record.{{id_f}}, "{{id_prefix}}-00003")
'''

TEST_HANDLERS = '''import unittest

{{imports}}


class HandlerTest(unittest.TestCase):
    def setUp(self):
        self.service = build_service(Settings(requests_per_window=5, window_seconds=10), clock=lambda: 42.0)

    def submit(self, **overrides):
        body = {
            "{{owner}}": "{{owner_a}}",
            "{{label_f}}": "{{label_a}}",
            "{{qty_f}}": "3",
            "{{cat_f}}": "{{cat0}}",
        }
        body.update(overrides)
        return handle_submit(self.service, body)

    def test_submit_returns_created(self):
        status, _headers, payload = self.submit()
        self.assertEqual(status, 201)
        self.assertEqual(payload["{{qty_f}}"], 3)
        self.assertEqual(payload["{{owner}}"], "{{owner_a}}")

    def test_non_numeric_{{qty_f}}_is_bad_request(self):
        status, _headers, payload = self.submit({{qty_f}}="lots")
        self.assertEqual(status, 400)
        self.assertEqual(payload["error"]["code"], "invalid")

    def test_get_unknown_is_not_found(self):
        status, _headers, _payload = handle_get(self.service, "{{id_prefix}}-00404")
        self.assertEqual(status, 404)

    def test_quota_requires_{{owner}}(self):
        status, _headers, _payload = handle_quota(self.service, " ")
        self.assertEqual(status, 400)

    def test_retry_after_header_rounds_up(self):
        self.assertEqual(retry_after_header(0.2), "1")
        self.assertEqual(retry_after_header(3), "3")
        self.assertEqual(retry_after_header(59.5), "60")
'''

HIDDEN_QUOTAS = '''import json
import tempfile
import unittest
from pathlib import Path

{{imports}}
''' + CLOCK + '''

CATEGORY = "{{cat0}}"


def make_service(clock, limit, window):
    return build_service(Settings(requests_per_window=limit, window_seconds=window), clock=clock)


class QuotaWindowTest(unittest.TestCase):
    def setUp(self):
        self.clock = FakeClock(100.0)
        self.service = make_service(self.clock, limit=3, window=60)

    def submit(self, {{owner}}="{{owner_a}}"):
        return self.service.{{fn_submit}}({{owner}}, "{{label_a}}", 1, CATEGORY)

    def test_quota_admits_exactly_the_limit(self):
        for _ in range(3):
            self.submit()
        with self.assertRaises({{ErrLimited}}) as caught:
            self.submit()
        self.assertEqual(caught.exception.retry_after, 60)
        self.assertEqual(self.service.quota("{{owner_a}}")["accepted"], 3)

    def test_request_stops_counting_after_exactly_one_window(self):
        for _ in range(3):
            self.submit()
        self.clock.advance(59.5)
        with self.assertRaises({{ErrLimited}}) as caught:
            self.submit()
        self.assertAlmostEqual(caught.exception.retry_after, 0.5)
        self.clock.advance(0.5)
        record, decision = self.submit()
        self.assertEqual(record.{{id_f}}, "{{id_prefix}}-00004")
        self.assertEqual(decision.remaining, 2)

    def test_quota_shows_the_room_freed_after_exactly_one_window(self):
        for _ in range(3):
            self.submit()
        self.clock.advance(60)
        self.assertEqual(self.service.quota("{{owner_a}}")["available"], 3)

    def test_window_slides_request_by_request(self):
        limiter = {{new_limiter}}(limit=2, window=60, clock=self.clock)
        self.assertTrue(limiter.acquire("k").allowed)
        self.clock.advance(30)
        self.assertTrue(limiter.acquire("k").allowed)
        self.clock.advance(29)
        rejected = limiter.acquire("k")
        self.assertFalse(rejected.allowed)
        self.assertEqual(rejected.retry_after, 1)
        self.assertEqual(rejected.remaining, 0)
        self.clock.advance(1)
        self.assertTrue(limiter.acquire("k").allowed)
        self.clock.advance(1)
        rejected = limiter.acquire("k")
        self.assertFalse(rejected.allowed)
        self.assertEqual(rejected.retry_after, 29)
        self.clock.advance(29)
        self.assertTrue(limiter.acquire("k").allowed)

    def test_single_request_quota(self):
        limiter = {{new_limiter}}(limit=1, window=10, clock=self.clock)
        self.assertTrue(limiter.acquire("k").allowed)
        self.assertFalse(limiter.acquire("k").allowed)
        self.clock.advance(10)
        self.assertTrue(limiter.acquire("k").allowed)
        self.assertEqual(limiter.available("k"), 0)

    def test_remaining_counts_down_to_zero(self):
        decisions = [self.submit()[1] for _ in range(3)]
        self.assertEqual([decision.remaining for decision in decisions], [2, 1, 0])
        self.assertEqual([decision.retry_after for decision in decisions], [0, 0, 0])
        self.assertEqual(self.service.quota("{{owner_a}}")["available"], 0)

    def test_rejected_requests_do_not_extend_the_wait(self):
        limiter = {{new_limiter}}(limit=1, window=60, clock=self.clock)
        limiter.acquire("k")
        self.clock.advance(30)
        self.assertFalse(limiter.acquire("k").allowed)
        self.clock.advance(30)
        self.assertTrue(limiter.acquire("k").allowed)

    def test_{{owners}}_are_limited_separately_and_ignore_case(self):
        for _ in range(3):
            self.submit("{{owner_a}}")
        with self.assertRaises({{ErrLimited}}):
            self.submit(" {{owner_a_upper}} ")
        record, decision = self.submit("{{owner_b}}")
        self.assertEqual(record.{{owner}}, "{{owner_b}}")
        self.assertEqual(decision.remaining, 2)

    def test_invalid_submission_does_not_use_quota(self):
        for _ in range(3):
            with self.assertRaises({{ErrInvalid}}):
                self.service.{{fn_submit}}("{{owner_a}}", "", 1, CATEGORY)
        self.assertEqual(self.service.quota("{{owner_a}}")["available"], 3)

    def test_invalid_submission_does_not_reset_a_used_quota(self):
        for _ in range(3):
            self.submit()
        with self.assertRaises({{ErrInvalid}}):
            self.service.{{fn_submit}}("{{owner_a}}", "", 1, CATEGORY)
        with self.assertRaises({{ErrLimited}}):
            self.submit()
        self.assertEqual(self.service.quota("{{owner_a}}")["accepted"], 3)

    def test_lifting_quota_admits_again(self):
        for _ in range(3):
            self.submit()
        self.service.lift_quota("{{owner_a_upper}}")
        self.assertEqual(self.submit()[1].remaining, 2)


class QuotaHandlerTest(unittest.TestCase):
    def test_limit_reported_as_429_with_retry_after(self):
        clock = FakeClock(7.0)
        service = make_service(clock, limit=2, window=45)
        body = {"{{owner}}": "{{owner_a}}", "{{label_f}}": "{{label_a}}", "{{qty_f}}": "1", "{{cat_f}}": CATEGORY}
        statuses = []
        for _ in range(2):
            status, headers, _payload = handle_submit(service, body)
            statuses.append((status, headers["X-RateLimit-Remaining"]))
        self.assertEqual(statuses, [(201, "1"), (201, "0")])
        clock.advance(0.5)
        status, headers, payload = handle_submit(service, body)
        self.assertEqual(status, 429)
        self.assertEqual(headers["Retry-After"], "45")
        self.assertEqual(payload["error"]["code"], "rate_limited")
        clock.advance(44.5)
        status, _headers, _payload = handle_submit(service, body)
        self.assertEqual(status, 201)

    def test_settings_file_is_read_and_checked(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "settings.json"
            path.write_text(json.dumps({"requests_per_window": 4, "window_seconds": 15}), encoding="utf-8")
            settings = load_settings(path)
            self.assertEqual((settings.requests_per_window, settings.window_seconds), (4, 15))
            path.write_text(json.dumps({"requests_per_windows": 4}), encoding="utf-8")
            with self.assertRaises({{ErrInvalid}}):
                load_settings(path)
'''
