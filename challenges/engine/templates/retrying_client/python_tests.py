"""Python visible and hidden tests of the retrying-client template."""

HELPERS = '''

def make_client(transport, max_attempts=3, base_delay=0.1, max_delay=5.0):
    """A client whose waits are recorded instead of slept."""
    waits = []
    policy = RetryPolicy(max_attempts=max_attempts, base_delay=base_delay, multiplier=2.0,
                         max_delay=max_delay)
    return build_client(transport, policy, sleep=waits.append), waits
'''

TEST_BACKOFF = '''import unittest

{{imports}}


class BackoffTest(unittest.TestCase):
    def test_waits_are_capped(self):
        policy = RetryPolicy(max_attempts=10, base_delay=1.0, multiplier=3.0, max_delay=4.0)
        self.assertEqual(backoff_delay(9, policy), 4.0)
        self.assertTrue(all(wait <= 4.0 for wait in backoff_schedule(policy)))

    def test_schedule_has_one_wait_per_retry(self):
        policy = RetryPolicy(max_attempts=4, base_delay=0.5, multiplier=2.0, max_delay=60.0)
        self.assertEqual(len(backoff_schedule(policy)), 3)

    def test_retry_numbers_start_at_one(self):
        with self.assertRaises(ValueError):
            backoff_delay(0, RetryPolicy())

    def test_overrides_are_validated(self):
        policy = with_overrides(RetryPolicy(), max_attempts=2)
        self.assertEqual(policy.max_attempts, 2)
        with self.assertRaises(ValueError):
            with_overrides(policy, attempts=2)
        with self.assertRaises(ValueError):
            with_overrides(policy, max_attempts=0)

    def test_policy_rejects_zero_attempts(self):
        with self.assertRaises(ValueError):
            RetryPolicy(max_attempts=0)
'''

TEST_TRANSPORT = '''import unittest

{{imports}}


class InMemoryTransportTest(unittest.TestCase):
    def setUp(self):
        self.transport = InMemoryTransport()

    def create(self, {{label_f}}="{{label_a}}", key=None):
        body = {"{{owner}}": "{{owner_a}}", "{{label_f}}": {{label_f}}, "{{qty_f}}": 2}
        return self.transport.send(Request("POST", "/{{entities_path}}", body, key))

    def test_create_then_get(self):
        created = self.create()
        self.assertEqual(created.status, 201)
        fetched = self.transport.send(Request("GET", f"/{{entities_path}}/{created.body['{{id_f}}']}"))
        self.assertEqual(fetched.body, created.body)

    def test_duplicate_{{label_f}}_conflicts(self):
        self.create()
        self.assertEqual(self.create().status, 409)

    def test_idempotency_key_replays_first_reply(self):
        first = self.create(key="k-1")
        again = self.create(key="k-1")
        self.assertEqual(again, first)
        self.assertEqual(len(self.transport.records()), 1)

    def test_unavailable_fault_reaches_nothing(self):
        self.transport.fail_next("unavailable")
        with self.assertRaises({{ErrUnavailable}}):
            self.create()
        self.assertEqual(self.transport.records(), [])

    def test_timeout_fault_applies_request(self):
        self.transport.fail_next("timeout")
        with self.assertRaises(RequestTimedOut):
            self.create()
        self.assertEqual(len(self.transport.records()), 1)

    def test_unknown_fault_is_rejected(self):
        with self.assertRaises(ValueError):
            self.transport.fail_next("flaky")
'''

TEST_CLIENT = '''import unittest

{{imports}}
''' + HELPERS + '''

class {{ClientCls}}Test(unittest.TestCase):
    def setUp(self):
        self.transport = InMemoryTransport()
        self.client, self.waits = make_client(self.transport)

    def test_create_and_fetch(self):
        created = self.client.{{fn_create}}("{{owner_a}}", "{{label_a}}", 4)
        self.assertEqual(created.{{qty_f}}, 4)
        self.assertEqual(self.client.{{fn_fetch}}(created.{{id_f}}), created)

    def test_set_{{status_f}}(self):
        created = self.client.{{fn_create}}("{{owner_a}}", "{{label_a}}", 1)
        moved = self.client.set_{{status_f}}(created.{{id_f}}, "{{status1}}")
        self.assertEqual(moved.{{status_f}}, "{{status1}}")

    def test_unknown_{{status_f}}_is_invalid(self):
        created = self.client.{{fn_create}}("{{owner_a}}", "{{label_a}}", 1)
        with self.assertRaises({{ErrInvalid}}):
            self.client.set_{{status_f}}(created.{{id_f}}, "misplaced")

    def test_{{fn_cancel}}_removes(self):
        created = self.client.{{fn_create}}("{{owner_a}}", "{{label_a}}", 1)
        self.client.{{fn_cancel}}(created.{{id_f}})
        self.assertEqual(self.transport.records(), [])

    def test_refused_connection_is_retried(self):
        self.transport.fail_next("unavailable")
        created = self.client.{{fn_create}}("{{owner_a}}", "{{label_a}}", 1)
        self.assertEqual(len(self.transport.requests), 2)
        self.assertEqual(self.transport.records(), [created])

    def test_ensure_returns_existing_record(self):
        created, was_new = self.client.ensure_{{entity}}("{{owner_a}}", "{{label_a}}", 2)
        again, again_new = self.client.ensure_{{entity}}("{{owner_a}}", "{{label_a}}", 2)
        self.assertEqual((was_new, again_new), (True, False))
        self.assertEqual(again, created)

    def test_conflict_is_raised_without_retrying(self):
        self.client.{{fn_create}}("{{owner_a}}", "{{label_a}}", 1)
        with self.assertRaises({{ErrConflict}}):
            self.client.{{fn_create}}("{{owner_a}}", "{{label_a}}", 1)
        self.assertEqual(len(self.transport.requests), 2)
        self.assertEqual(self.waits, [])
'''

TEST_IMPORTER = '''import unittest

{{imports}}
''' + HELPERS + '''

ROWS = [
    {"{{owner}}": "{{owner_a}}", "{{label_f}}": "{{label_a}}", "{{qty_f}}": "3"},
    {"{{owner}}": "{{owner_b}}", "{{label_f}}": "{{label_b}}", "{{qty_f}}": "1"},
]


class {{ImporterCls}}Test(unittest.TestCase):
    def setUp(self):
        self.transport = InMemoryTransport()
        self.client, self.waits = make_client(self.transport)

    def test_every_row_is_created(self):
        report = {{ImporterCls}}(self.client, "{{batch}}").run(ROWS)
        self.assertEqual(report.summary(), {"created": 2, "skipped": 0, "failed": 0})
        self.assertTrue(report.complete)

    def test_invalid_row_is_reported(self):
        rows = [dict(ROWS[0], {{qty_f}}="0"), ROWS[1]]
        report = {{ImporterCls}}(self.client, "{{batch}}").run(rows)
        self.assertEqual(report.failed, [(0, "invalid")])
        self.assertEqual(len(report.created), 1)

    def test_failed_rows_can_be_retried(self):
        # One refusal more than a row's attempts: row 0 gives up, row 1 gets through on a retry.
        self.transport.fail_next("unavailable", times=4)
        importer = {{ImporterCls}}(self.client, "{{batch}}")
        first = importer.run(ROWS)
        self.assertEqual(first.failed, [(0, "retries_exhausted")])
        second = importer.retry_failed(ROWS, first)
        self.assertEqual(second.summary(), {"created": 2, "skipped": 0, "failed": 0})
        self.assertEqual(second.to_dict()["failed_rows"], [])

    def test_reconcile_reports_drift(self):
        report = {{ImporterCls}}(self.client, "{{batch}}").run(ROWS)
        first, second = report.created
        self.client.set_{{status_f}}(second, "{{status1}}")
        result = {{ImporterCls}}(self.client, "{{batch}}").reconcile(
            {first: "{{status0}}", second: "{{status0}}"})
        self.assertEqual(result["matching"], [first])
        self.assertEqual(result["drifted"], [(second, "{{status1}}")])

    def test_list_for_{{owner}}(self):
        {{ImporterCls}}(self.client, "{{batch}}").run(ROWS)
        listed = self.client.list_for_{{owner}}("{{owner_b}}")
        self.assertEqual([record.{{label_f}} for record in listed], ["{{label_b}}"])
        self.assertEqual(self.client.stats["calls"], 3)

'''

HERRING_TEST = '''

class ImportReportOrderTest(unittest.TestCase):
    def test_report_lists_rows_in_batch_order(self):
        transport = InMemoryTransport()
        client, _waits = make_client(transport, max_attempts=2)
        transport.fail_next("unavailable", times=2)
        transport.fail_next("timeout")
        report = {{ImporterCls}}(client, "{{batch}}").run(ROWS)
        self.assertEqual(report.failed, [(0, "retries_exhausted")])
        self.assertEqual(report.created, ["{{id_prefix}}-00001"])
        same_{{owner}} = [dict(ROWS[0], {{label_f}}="{{label_b}}"), dict(ROWS[0], {{label_f}}="{{label_c}}")]
        later = {{ImporterCls}}(client, "{{batch}}-b").run(same_{{owner}})
        self.assertEqual(len(set(later.created)), 2)
'''

HIDDEN_RETRIES = '''import json
import tempfile
import unittest
from pathlib import Path

{{imports}}
''' + HELPERS + '''

OWNER = "{{owner_a}}"


class RetryBudgetTest(unittest.TestCase):
    def setUp(self):
        self.transport = InMemoryTransport()

    def test_gives_up_after_max_attempts(self):
        client, waits = make_client(self.transport, max_attempts=3)
        self.transport.fail_next("unavailable", times=5)
        with self.assertRaises(RetriesExhausted) as caught:
            client.{{fn_fetch}}("{{id_prefix}}-00001")
        self.assertEqual(len(self.transport.requests), 3)
        self.assertEqual(caught.exception.details["attempts"], 3)
        self.assertIsInstance(caught.exception.__cause__, {{ErrUnavailable}})
        self.assertEqual(len(waits), 2)

    def test_succeeds_on_last_permitted_attempt(self):
        client, waits = make_client(self.transport, max_attempts=3)
        self.transport.fail_next("unavailable", times=2)
        created = client.{{fn_create}}(OWNER, "{{label_a}}", 2)
        self.assertEqual(len(self.transport.requests), 3)
        self.assertEqual(self.transport.records(), [created])
        self.assertEqual(len(waits), 2)

    def test_single_attempt_policy_never_retries(self):
        client, waits = make_client(self.transport, max_attempts=1)
        self.transport.fail_next("unavailable")
        with self.assertRaises(RetriesExhausted):
            client.{{fn_create}}(OWNER, "{{label_a}}", 2)
        self.assertEqual(len(self.transport.requests), 1)
        self.assertEqual(waits, [])
        self.assertEqual(client.{{fn_create}}(OWNER, "{{label_a}}", 2).{{id_f}}, "{{id_prefix}}-00001")

    def test_backoff_waits_grow_from_base(self):
        client, waits = make_client(self.transport, max_attempts=5, base_delay=0.25, max_delay=1.0)
        self.transport.fail_next("unavailable", times=4)
        client.{{fn_create}}(OWNER, "{{label_a}}", 2)
        self.assertEqual(waits, [0.25, 0.5, 1.0, 1.0])
        policy = RetryPolicy(max_attempts=4, base_delay=0.5, multiplier=3.0, max_delay=10.0)
        self.assertEqual(backoff_schedule(policy), [0.5, 1.5, 4.5])

    def test_answers_from_the_remote_are_not_retried(self):
        client, waits = make_client(self.transport, max_attempts=4)
        client.{{fn_create}}(OWNER, "{{label_a}}", 2)
        with self.assertRaises({{ErrConflict}}):
            client.{{fn_create}}(OWNER, "{{label_a}}", 2)
        with self.assertRaises({{ErrInvalid}}):
            client.{{fn_create}}(OWNER, "{{label_b}}", 0)
        self.assertEqual(len(self.transport.requests), 3)
        self.assertEqual(waits, [])


class RepeatSafetyTest(unittest.TestCase):
    def setUp(self):
        self.transport = InMemoryTransport()
        self.client, self.waits = make_client(self.transport, max_attempts=4)

    def test_timed_out_create_without_key_is_not_sent_again(self):
        self.transport.fail_next("timeout")
        with self.assertRaises(RequestTimedOut):
            self.client.{{fn_create}}(OWNER, "{{label_a}}", 2)
        self.assertEqual(len(self.transport.requests), 1)
        self.assertEqual(len(self.transport.records()), 1)
        self.assertEqual(self.waits, [])

    def test_timed_out_create_with_key_is_sent_again_and_applied_once(self):
        self.transport.fail_next("timeout", times=2)
        created = self.client.{{fn_create}}(OWNER, "{{label_a}}", 2, idempotency_key="{{batch}}:0")
        self.assertEqual(len(self.transport.requests), 3)
        self.assertEqual(self.transport.records(), [created])

    def test_refused_create_without_key_is_sent_again(self):
        self.transport.fail_next("unavailable")
        created = self.client.{{fn_create}}(OWNER, "{{label_a}}", 2)
        self.assertEqual(self.transport.records(), [created])
        self.assertEqual(len(self.waits), 1)

    def test_timed_out_reads_and_updates_are_sent_again(self):
        created = self.client.{{fn_create}}(OWNER, "{{label_a}}", 2)
        self.transport.fail_next("timeout")
        self.assertEqual(self.client.{{fn_fetch}}(created.{{id_f}}), created)
        self.transport.fail_next("timeout")
        moved = self.client.set_{{status_f}}(created.{{id_f}}, "{{status1}}")
        self.assertEqual(moved.{{status_f}}, "{{status1}}")
        self.assertEqual(len(self.transport.requests), 5)

    def test_fetch_of_unknown_{{id_f}}_returns_none(self):
        self.assertIsNone(self.client.{{fn_fetch}}("{{id_prefix}}-04040"))
        self.assertEqual(len(self.transport.requests), 1)


class BatchImportTest(unittest.TestCase):
    ROWS = [
        {"{{owner}}": "{{owner_a}}", "{{label_f}}": "{{label_a}}", "{{qty_f}}": "3"},
        {"{{owner}}": "{{owner_b}}", "{{label_f}}": "{{label_b}}", "{{qty_f}}": "1"},
        {"{{owner}}": "{{owner_b}}", "{{label_f}}": "{{label_c}}", "{{qty_f}}": "6"},
    ]

    def setUp(self):
        self.transport = InMemoryTransport()
        self.client, self.waits = make_client(self.transport, max_attempts=3)

    def test_batch_survives_lost_responses(self):
        self.transport.fail_next("timeout")
        self.transport.fail_next("unavailable")
        report = {{ImporterCls}}(self.client, "{{batch}}").run(self.ROWS)
        self.assertEqual(report.summary(), {"created": 3, "skipped": 0, "failed": 0})
        self.assertEqual(len(self.transport.records()), 3)

    def test_exhausted_row_is_reported_and_batch_continues(self):
        self.transport.fail_next("unavailable", times=3)
        report = {{ImporterCls}}(self.client, "{{batch}}").run(self.ROWS)
        self.assertEqual(report.failed, [(0, "retries_exhausted")])
        self.assertEqual(len(report.created), 2)
        self.assertFalse(report.complete)

    def test_rerunning_a_batch_creates_nothing_new(self):
        first = {{ImporterCls}}(self.client, "{{batch}}").run(self.ROWS)
        second = {{ImporterCls}}(self.client, "{{batch}}").run(self.ROWS)
        self.assertEqual(second.created, first.created)
        self.assertEqual(len(self.transport.records()), 3)

    def test_rows_already_registered_are_skipped(self):
        self.client.{{fn_create}}("{{owner_b}}", "{{label_b}}", 1)
        report = {{ImporterCls}}(self.client, "{{batch}}").run(self.ROWS)
        self.assertEqual(report.skipped, [1])
        self.assertEqual(len(report.created), 2)
        self.assertTrue(report.complete)

    def test_advance_reports_unknown_{{id_f}}s(self):
        created = {{ImporterCls}}(self.client, "{{batch}}").run(self.ROWS[:1]).created
        moved, missing = {{ImporterCls}}(self.client, "{{batch}}").advance_all(
            created + ["{{id_prefix}}-09999"], "{{status1}}")
        self.assertEqual(moved, created)
        self.assertEqual(missing, ["{{id_prefix}}-09999"])

    def test_row_keys_are_stable_and_distinct_per_row(self):
        importer = {{ImporterCls}}(self.client, "{{batch}}")
        first, second = self.ROWS[1], self.ROWS[2]
        self.assertEqual(importer.row_key(1, first), importer.row_key(1, dict(first)))
        self.assertNotEqual(importer.row_key(1, first), importer.row_key(2, second))
        self.assertNotEqual(importer.row_key(1, first), {{ImporterCls}}(self.client, "{{batch}}-b").row_key(1, first))

    def test_policy_file_is_read_and_checked(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "settings.json"
            path.write_text(json.dumps({"max_attempts": 6, "base_delay": 0.5}), encoding="utf-8")
            policy = load_policy(path)
            self.assertEqual((policy.max_attempts, policy.base_delay), (6, 0.5))
            path.write_text(json.dumps({"max_attempt": 6}), encoding="utf-8")
            with self.assertRaises(ValueError):
                load_policy(path)
'''
