"""Python visible and hidden tests of the order-lifecycle template."""

HELPERS = '''

class Ticker:
    """A clock that moves one second per reading."""

    def __init__(self, start=1000.0):
        self.now = start

    def __call__(self):
        self.now += 1
        return self.now


def make_service(**overrides):
    return build_service(Settings(**overrides), clock=Ticker())
'''

TEST_LIFECYCLE = '''import unittest

{{imports}}


{{lifecycle_const}}


class {{Entity}}LifecycleTest(unittest.TestCase):
    def test_moves_forward_one_step(self):
        for current, following in zip(STATUSES, STATUSES[1:]):
            self.assertTrue({{t_allows}}(current, following), current)

    def test_cannot_skip_a_step(self):
        self.assertFalse({{t_allows}}(STATUSES[0], STATUSES[2]))

    def test_cannot_go_back(self):
        self.assertFalse({{t_allows}}(STATUSES[1], STATUSES[0]))

    def test_new_{{entity}}_can_be_cancelled(self):
        self.assertTrue({{t_allows}}(INITIAL_STATUS, CANCELLED))

    def test_terminal_statuses_have_no_moves(self):
        self.assertEqual({{t_targets}}(CANCELLED), frozenset())
        self.assertEqual({{t_targets}}(STATUSES[-1]), frozenset())
        self.assertIsNone({{t_next}}(STATUSES[-1]))

    def test_require_raises_conflict(self):
        with self.assertRaises({{ErrConflict}}):
            {{t_require}}(STATUSES[-1], STATUSES[0])
'''

TEST_SERVICE = '''import unittest

{{imports}}
''' + HELPERS + '''

class {{SvcCls}}Test(unittest.TestCase):
    def setUp(self):
        self.service = make_service()

    def create(self, {{amount_f}}=1200):
        return self.service.{{fn_create}}("{{owner_a}}", "{{label_a}}", {{amount_f}})

    def test_create_starts_in_initial_{{status_f}}(self):
        record = self.create()
        self.assertEqual(record.{{status_f}}, "{{status0}}")
        self.assertEqual(record.{{id_f}}, "{{id_prefix}}-00001")

    def test_advance_walks_the_whole_lifecycle(self):
        record = self.create()
        seen = []
        for _ in range(len(STATUSES) - 1):
            record = self.service.{{fn_advance}}(record.{{id_f}})
            seen.append(record.{{status_f}})
        self.assertEqual(tuple(seen), STATUSES[1:])
        with self.assertRaises({{ErrConflict}}):
            self.service.{{fn_advance}}(record.{{id_f}})

    def test_owner_is_charged_once(self):
        record = self.create(900)
        for _ in range(len(STATUSES) - 1):
            self.service.{{fn_advance}}(record.{{id_f}})
        self.assertEqual(self.service.ledger.balance("{{owner_a}}"), 900)

    def test_cancel_after_charge_refunds(self):
        record = self.create(700)
        self.service.{{fn_advance}}(record.{{id_f}})
        cancelled = self.service.{{fn_cancel}}(record.{{id_f}}, "customer request")
        self.assertEqual(cancelled.{{status_f}}, CANCELLED)
        self.assertEqual(self.service.ledger.balance("{{owner_a}}"), 0)

    def test_rename_before_commitment(self):
        record = self.create()
        renamed = self.service.rename(record.{{id_f}}, "{{label_b}}")
        self.assertEqual(renamed.{{label_f}}, "{{label_b}}")
        self.assertEqual(renamed.version, 2)

    def test_rename_after_commitment_is_refused(self):
        record = self.create()
        for _ in range({{commit_index}}):
            record = self.service.{{fn_advance}}(record.{{id_f}})
        with self.assertRaises({{ErrConflict}}):
            self.service.rename(record.{{id_f}}, "{{label_b}}")

    def test_blank_{{label_f}}_is_rejected(self):
        with self.assertRaises({{ErrInvalid}}):
            self.service.{{fn_create}}("{{owner_a}}", "  ", 10)

    def test_unknown_{{id_f}}(self):
        with self.assertRaises({{ErrMissing}}):
            self.service.{{fn_get}}("{{id_prefix}}-09999")
'''

HERRING_TEST = '''

class OutboxOrderTest(unittest.TestCase):
    def test_outbox_keeps_publication_order(self):
        service = make_service()
        record = service.{{fn_create}}("{{owner_b}}", "{{label_a}}", 300)
        for _ in range({{commit_index}}):
            service.{{fn_advance}}(record.{{id_f}})
        with self.assertRaises({{ErrConflict}}):
            service.{{fn_cancel}}(record.{{id_f}}, "late change of plan")
        topics = [message.topic for message in service.outbox.drain()]
        expected = ["{{entity_topic}}.created"] + [f"{{entity_topic}}.{status}" for status in STATUSES[1:{{commit_index}} + 1]]
        self.assertEqual(topics, expected)
'''

TEST_HANDLERS = '''import unittest

{{imports}}


class HandlerTest(unittest.TestCase):
    def setUp(self):
        self.service = build_service(Settings(), clock=lambda: 50.0)

    def create(self):
        status, payload = handle_create(self.service, {
            "{{owner}}": "{{owner_a}}", "{{label_f}}": "{{label_a}}", "{{amount_f}}": 400,
        })
        self.assertEqual(status, 201)
        return payload

    def test_create_lists_actions(self):
        payload = self.create()
        self.assertEqual(payload["actions"], ["advance", "cancel"])

    def test_advance_records_history(self):
        created = self.create()
        status, payload = handle_action(self.service, created["{{id_f}}"], {"action": "advance"})
        self.assertEqual(status, 200)
        self.assertEqual(payload["{{status_f}}"], "{{status1}}")
        self.assertEqual([step["{{status_f}}"] for step in payload["history"]], ["{{status1}}"])

    def test_unknown_action_is_bad_request(self):
        created = self.create()
        status, _payload = handle_action(self.service, created["{{id_f}}"], {"action": "teleport"})
        self.assertEqual(status, 400)

    def test_unknown_{{entity}}_is_not_found(self):
        status, _payload = handle_action(self.service, "{{id_prefix}}-00404", {"action": "advance"})
        self.assertEqual(status, 404)

    def test_list_and_summary(self):
        created = self.create()
        handle_action(self.service, created["{{id_f}}"], {"action": "advance"})
        self.create()
        status, payload = handle_list(self.service, "{{owner_a}}", {"{{status_f}}": "{{status1}}"})
        self.assertEqual((status, [item["{{id_f}}"] for item in payload["items"]]), (200, [created["{{id_f}}"]]))
        self.assertEqual(handle_list(self.service, "{{owner_a}}", {"{{status_f}}": "lost"})[0], 400)
        status, payload = handle_summary(self.service, "{{owner_a}}")
        self.assertEqual((payload["counts"]["{{status0}}"], payload["counts"]["{{status1}}"]), (1, 1))
        self.assertEqual(payload["balance"], 400)

    def test_relay_keeps_undelivered_messages(self):
        delivered = []

        def sink(message):
            if len(delivered) == 1:
                raise ConnectionError("sink offline")
            delivered.append(message.topic)

        self.create()
        self.create()
        relay = OutboxRelay(self.service.outbox, sink)
        self.assertEqual(relay.run(), 1)
        self.assertEqual(len(self.service.outbox.pending()), 1)

    def test_negative_{{amount_f}}_is_rejected(self):
        status, _payload = handle_create(self.service, {
            "{{owner}}": "{{owner_a}}", "{{label_f}}": "{{label_a}}", "{{amount_f}}": -5,
        })
        self.assertEqual(status, 400)
'''

HIDDEN_LIFECYCLE = '''import json
import tempfile
import unittest
from pathlib import Path

{{imports}}
''' + HELPERS + '''

COMMIT_INDEX = {{commit_index}}
{{lifecycle_const}}


class CommittedTest(unittest.TestCase):
    def setUp(self):
        self.service = make_service()

    def at_status(self, index, {{amount_f}}=500):
        record = self.service.{{fn_create}}("{{owner_a}}", "{{label_a}}", {{amount_f}})
        for _ in range(index):
            record = self.service.{{fn_advance}}(record.{{id_f}})
        return record

    def test_committed_{{entities}}_cannot_be_cancelled(self):
        for index in range(COMMIT_INDEX, len(STATUSES)):
            record = self.at_status(index)
            self.service.outbox.drain()
            with self.assertRaises({{ErrConflict}}, msg=STATUSES[index]):
                self.service.{{fn_cancel}}(record.{{id_f}}, "too late")
            stored = self.service.{{fn_get}}(record.{{id_f}})
            self.assertEqual(stored.{{status_f}}, STATUSES[index])
            self.assertEqual(stored.version, record.version)
            self.assertEqual([entry.kind for entry in self.service.ledger.entries_for(record.{{id_f}})], ["charge"])
            self.assertEqual(self.service.outbox.pending(), [])

    def test_cancel_of_committed_{{entity}}_answers_409(self):
        record = self.at_status(COMMIT_INDEX)
        status, payload = handle_action(self.service, record.{{id_f}}, {"action": "cancel", "reason": "late"})
        self.assertEqual(status, 409)
        self.assertEqual(payload["error"]["code"], "conflict")
        status, payload = handle_get(self.service, record.{{id_f}})
        self.assertEqual(payload["{{status_f}}"], STATUSES[COMMIT_INDEX])
        self.assertEqual(self.service.ledger.balance("{{owner_a}}"), 500)

    def test_committed_{{entities}}_only_offer_advance(self):
        for index in range(COMMIT_INDEX, len(STATUSES) - 1):
            record = self.at_status(index)
            self.assertEqual(self.service.allowed_actions(record.{{id_f}}), ["advance"], STATUSES[index])
        self.assertEqual(self.service.allowed_actions(self.at_status(len(STATUSES) - 1).{{id_f}}), [])

    def test_table_only_allows_forward_steps_and_early_cancel(self):
        for index, status in enumerate(STATUSES):
            expected = set(STATUSES[index + 1:index + 2])
            if index < COMMIT_INDEX:
                expected.add(CANCELLED)
            for target in (*STATUSES, CANCELLED):
                self.assertEqual({{t_allows}}(status, target), target in expected, (status, target))
        with self.assertRaises({{ErrConflict}}):
            {{t_require}}(STATUSES[COMMIT_INDEX], CANCELLED)


class EarlyCancelTest(unittest.TestCase):
    def setUp(self):
        self.service = make_service()

    def test_each_early_{{status_f}}_can_be_cancelled(self):
        for index in range(COMMIT_INDEX):
            record = self.service.{{fn_create}}("{{owner_b}}", "{{label_a}}", 250)
            for _ in range(index):
                record = self.service.{{fn_advance}}(record.{{id_f}})
            cancelled = self.service.{{fn_cancel}}(record.{{id_f}}, "changed plans")
            self.assertEqual(cancelled.{{status_f}}, CANCELLED)
            self.assertEqual(cancelled.history[-1].reason, "changed plans")
            self.assertEqual(cancelled.version, record.version + 1)
        self.assertEqual(self.service.ledger.balance("{{owner_b}}"), 0)

    def test_cancelling_before_the_charge_refunds_nothing(self):
        record = self.service.{{fn_create}}("{{owner_b}}", "{{label_a}}", 250)
        self.service.{{fn_cancel}}(record.{{id_f}}, "mistake")
        self.assertEqual(self.service.ledger.entries_for(record.{{id_f}}), [])
        charged = self.service.{{fn_create}}("{{owner_b}}", "{{label_b}}", 80)
        self.service.{{fn_advance}}(charged.{{id_f}})
        self.service.{{fn_cancel}}(charged.{{id_f}}, "mistake")
        entries = self.service.ledger.entries_for(charged.{{id_f}})
        self.assertEqual([(entry.kind, entry.{{amount_f}}, entry.{{owner}}) for entry in entries],
                         [("charge", 80, "{{owner_b}}"), ("refund", 80, "{{owner_b}}")])

    def test_repeated_cancel_changes_nothing(self):
        record = self.service.{{fn_create}}("{{owner_b}}", "{{label_a}}", 90)
        self.service.{{fn_advance}}(record.{{id_f}})
        first = self.service.{{fn_cancel}}(record.{{id_f}}, "duplicate")
        second = self.service.{{fn_cancel}}(record.{{id_f}}, "duplicate")
        self.assertEqual(second, first)
        self.assertEqual([entry.kind for entry in self.service.ledger.entries_for(record.{{id_f}})],
                         ["charge", "refund"])
        status, payload = handle_action(self.service, record.{{id_f}}, {"action": "cancel"})
        self.assertEqual((status, payload["actions"]), (200, []))

    def test_cancelled_{{entity}}_cannot_move_on(self):
        record = self.service.{{fn_create}}("{{owner_b}}", "{{label_a}}", 90)
        self.service.{{fn_cancel}}(record.{{id_f}})
        with self.assertRaises({{ErrConflict}}):
            self.service.{{fn_advance}}(record.{{id_f}})
        with self.assertRaises({{ErrConflict}}):
            self.service.rename(record.{{id_f}}, "{{label_b}}")

    def test_settings_file_is_read_and_checked(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "settings.json"
            path.write_text(json.dumps({"require_cancel_reason": True}), encoding="utf-8")
            service = build_service(load_settings(path), clock=Ticker())
            record = service.{{fn_create}}("{{owner_b}}", "{{label_a}}", 10)
            with self.assertRaises({{ErrInvalid}}):
                service.{{fn_cancel}}(record.{{id_f}}, " ")
            path.write_text(json.dumps({"require_reason": True}), encoding="utf-8")
            with self.assertRaises({{ErrInvalid}}):
                load_settings(path)
'''
