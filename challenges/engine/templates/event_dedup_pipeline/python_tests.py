"""Python visible and hidden tests of the event-dedup-pipeline template."""

MESSAGE = '''

def message({{eid}}, {{ref_f}}="{{ref_a}}", source="{{source_a}}", {{qty_f}}=1, occurred_at=1_000,
            {{cat_f}}="{{cat_a}}"):
    return {
        "{{eid}}": {{eid}},
        "source": source,
        "{{ref_f}}": {{ref_f}},
        "{{cat_f}}": {{cat_f}},
        "{{qty_f}}": {{qty_f}},
        "occurred_at": occurred_at,
    }
'''

TEST_ENVELOPE = '''import unittest

{{imports}}
''' + MESSAGE + '''

class ParseEnvelopeTest(unittest.TestCase):
    def test_parses_and_normalises(self):
        raw = message("{{eid_a}}", source=" {{source_a_upper}} ", {{cat_f}}="{{cat_a_upper}}")
        envelope = parse_envelope(raw, received_at=5_000, max_age_ms=60_000)
        self.assertEqual(envelope.source, "{{source_a}}")
        self.assertEqual(envelope.{{cat_f}}, "{{cat_a}}")
        self.assertEqual(envelope.age_ms(), 4_000)

    def test_missing_field_is_named(self):
        raw = message("{{eid_a}}")
        del raw["{{ref_f}}"]
        with self.assertRaises({{ErrInvalid}}) as caught:
            parse_envelope(raw, received_at=5_000, max_age_ms=60_000)
        self.assertEqual(caught.exception.details["field"], "{{ref_f}}")

    def test_unknown_{{cat_f}}(self):
        with self.assertRaises({{ErrInvalid}}):
            parse_envelope(message("{{eid_a}}", {{cat_f}}="other"), received_at=5_000, max_age_ms=60_000)

    def test_negative_{{qty_f}}(self):
        with self.assertRaises({{ErrInvalid}}):
            parse_envelope(message("{{eid_a}}", {{qty_f}}=-1), received_at=5_000, max_age_ms=60_000)

    def test_too_old(self):
        with self.assertRaises({{ErrInvalid}}):
            parse_envelope(message("{{eid_a}}", occurred_at=0), received_at=120_001, max_age_ms=120_000)
'''

TEST_KEYS = '''import unittest

{{imports}}
''' + MESSAGE + '''

class IdempotencyKeyTest(unittest.TestCase):
    def envelope(self, raw, received_at):
        return parse_envelope(raw, received_at=received_at, max_age_ms=3_600_000)

    def test_redelivery_has_the_same_key(self):
        first = self.envelope(message("{{eid_a}}"), 2_000)
        again = self.envelope(message("{{eid_a}}"), 9_000)
        self.assertEqual(idempotency_key(first), idempotency_key(again))

    def test_sources_do_not_share_keys(self):
        one = self.envelope(message("{{eid_a}}", source="{{source_a}}"), 2_000)
        other = self.envelope(message("{{eid_a}}", source="{{source_b}}"), 2_000)
        self.assertNotEqual(idempotency_key(one), idempotency_key(other))

    def test_key_is_compact(self):
        self.assertEqual(len(idempotency_key(self.envelope(message("{{eid_a}}"), 2_000))), 32)
'''

TEST_SEEN = '''import unittest

{{imports}}


class SeenSetTest(unittest.TestCase):
    def test_duplicate_inside_window(self):
        seen = SeenSet(window_ms=1_000, capacity=10)
        self.assertTrue(seen.first_sighting("k", 0))
        self.assertFalse(seen.first_sighting("k", 500))

    def test_forgotten_after_window(self):
        seen = SeenSet(window_ms=1_000, capacity=10)
        seen.first_sighting("k", 0)
        self.assertTrue(seen.first_sighting("k", 5_000))

    def test_size_is_bounded_by_capacity(self):
        seen = SeenSet(window_ms=1_000, capacity=2)
        for key in ("a", "b", "c"):
            seen.first_sighting(key, 0)
        self.assertEqual(len(seen), 2)

    def test_forget(self):
        seen = SeenSet(window_ms=1_000, capacity=10)
        seen.first_sighting("k", 0)
        seen.forget("k")
        self.assertTrue(seen.first_sighting("k", 1))

    def test_purge(self):
        seen = SeenSet(window_ms=1_000, capacity=10)
        seen.first_sighting("a", 0)
        seen.first_sighting("b", 900)
        self.assertEqual(seen.purge(1_500), 1)
        self.assertEqual(len(seen), 1)


class ChunksTest(unittest.TestCase):
    def test_sizes(self):
        self.assertEqual([len(c) for c in chunks(list(range(7)), 3)], [3, 3, 1])

    def test_empty(self):
        self.assertEqual(list(chunks([], 3)), [])
'''

TEST_DELIVERY = '''import unittest

{{imports}}


class Flaky:
    def __init__(self, failures):
        self.failures = failures
        self.calls = 0

    def __call__(self, envelope):
        self.calls += 1
        if self.calls <= self.failures:
            raise {{ErrUnavailable}}("consumer busy")
        return "done"


class Envelope:
    {{eid}} = "{{eid_a}}"


class DeliverTest(unittest.TestCase):
    def test_first_call_succeeds(self):
        consumer = Flaky(0)
        self.assertEqual(deliver(consumer, Envelope(), max_retries=3), "done")
        self.assertEqual(consumer.calls, 1)

    def test_retries_until_success(self):
        consumer = Flaky(1)
        self.assertEqual(deliver(consumer, Envelope(), max_retries=3), "done")
        self.assertEqual(consumer.calls, 2)

    def test_gives_up(self):
        consumer = Flaky(10)
        with self.assertRaises(DeliveryFailed):
            deliver(consumer, Envelope(), max_retries=2)

    def test_other_errors_are_not_retried(self):
        def broken(envelope):
            raise KeyError("boom")

        with self.assertRaises(KeyError):
            deliver(broken, Envelope(), max_retries=3)
'''

TEST_PIPELINE = '''import unittest

{{imports}}
''' + MESSAGE + '''

class PipelineTest(unittest.TestCase):
    def setUp(self):
        self.clock = ManualClock(10_000)
        self.settings = Settings(dedup_window_seconds=300, max_event_age_seconds=3_600, batch_size=4,
                                 max_retries=2)
        self.pipeline, self.activity, self.totals = build_pipeline(self.settings, clock=self.clock)

    def test_accepts_a_batch(self):
        report = self.pipeline.ingest([message("{{eid_a}}", {{qty_f}}=2), message("{{eid_b}}", {{ref_f}}="{{ref_b}}")])
        self.assertEqual((report.accepted, report.duplicates), (2, 0))
        self.assertEqual(self.activity.total("{{ref_a}}"), 2)
        self.assertEqual(self.totals.totals(), {"{{cat_a}}": 3})

    def test_repeat_inside_one_batch_is_dropped(self):
        report = self.pipeline.ingest([message("{{eid_a}}"), message("{{eid_a}}")])
        self.assertEqual((report.accepted, report.duplicates), (1, 1))
        self.assertEqual(self.activity.count("{{ref_a}}"), 1)

    def test_malformed_{{event}}_is_dead_lettered(self):
        report = self.pipeline.ingest([{"{{eid}}": "x"}])
        self.assertEqual(report.rejected, 1)
        self.assertEqual(len(self.pipeline.dead_letters), 1)

    def test_handler_answers_multi_status_on_rejects(self):
        status, body = handle_batch(self.pipeline, {"{{events}}": [message("{{eid_a}}"), {}]})
        self.assertEqual((status, body["accepted"], body["rejected"]), (207, 1, 1))

    def test_body_must_hold_a_list(self):
        status, body = handle_batch(self.pipeline, {"{{events}}": "nope"})
        self.assertEqual(status, 400)
{{herring_test}}'''

HERRING_WINDOW = '''
    def test_retry_after_timeout_is_not_counted_twice(self):
        self.pipeline.ingest([message("{{eid_a}}", {{qty_f}}=4)])
        self.clock.advance(20)
        report = self.pipeline.ingest([message("{{eid_a}}", {{qty_f}}=4)])
        self.assertEqual(report.duplicates, 1)
        self.assertEqual(self.activity.total("{{ref_a}}"), 4)
'''

HERRING_CLOCK = '''
    def test_batching_restarts_after_the_window(self):
        self.pipeline.ingest([message("{{eid_a}}", {{qty_f}}=2)])
        self.clock.advance(301)
        report = self.pipeline.ingest([message("{{eid_a}}", {{qty_f}}=2)])
        self.assertEqual((report.accepted, report.duplicates), (1, 0))
'''

HERRING_KEY = '''
    def test_batch_split_keeps_every_{{event}}(self):
        batch = [message(f"{{eid_a}}-{n}", {{qty_f}}=1, occurred_at=1_000 + n) for n in range(6)]
        report = self.pipeline.ingest(batch)
        self.assertEqual(report.accepted, 6)
        self.assertEqual(self.activity.count("{{ref_a}}"), 6)
'''

HIDDEN = '''import time
import unittest

{{imports}}
''' + MESSAGE + '''

class Flaky:
    """A consumer that is unavailable for its first ``failures`` calls."""

    def __init__(self, failures):
        self.failures = failures
        self.calls = 0

    def __call__(self, envelope):
        self.calls += 1
        if self.calls <= self.failures:
            raise {{ErrUnavailable}}("consumer busy")


class DeduplicationTest(unittest.TestCase):
    def setUp(self):
        self.clock = ManualClock(1_700_000_000_000)
        self.settings = Settings(dedup_window_seconds=300, max_event_age_seconds=86_400, seen_capacity=10_000,
                                 batch_size=50, max_retries=2)
        self.pipeline, self.activity, self.totals = build_pipeline(self.settings, clock=self.clock)
        self.at = 1_700_000_000_000 - 5_000

    def send(self, *messages):
        return self.pipeline.ingest(list(messages))

    def test_redelivery_within_the_window_is_dropped(self):
        self.send(message("{{eid_a}}", {{qty_f}}=3, occurred_at=self.at))
        self.clock.advance(5)
        report = self.send(message("{{eid_a}}", {{qty_f}}=3, occurred_at=self.at))
        self.assertEqual((report.accepted, report.duplicates), (0, 1))
        self.assertEqual(self.activity.total("{{ref_a}}"), 3)

    def test_redelivery_just_before_the_window_ends_is_dropped(self):
        self.send(message("{{eid_a}}", occurred_at=self.at))
        self.clock.advance_ms(299_999)
        self.assertEqual(self.send(message("{{eid_a}}", occurred_at=self.at)).duplicates, 1)
        self.assertEqual(self.activity.count("{{ref_a}}"), 1)

    def test_seen_keys_expire_exactly_at_the_window(self):
        seen = SeenSet(window_ms=300_000, capacity=10)
        self.assertTrue(seen.first_sighting("k", 1_000))
        self.assertTrue(seen.first_sighting("j", 1_000))
        self.assertFalse(seen.first_sighting("j", 300_999))
        self.assertTrue(seen.first_sighting("k", 301_000))

    def test_window_counts_from_the_first_delivery(self):
        self.send(message("{{eid_a}}", occurred_at=self.at))
        self.clock.advance(200)
        self.assertEqual(self.send(message("{{eid_a}}", occurred_at=self.at)).duplicates, 1)
        self.clock.advance(100)
        report = self.send(message("{{eid_a}}", occurred_at=self.at))
        self.assertEqual((report.accepted, report.duplicates), (1, 0))
        self.assertEqual(self.activity.count("{{ref_a}}"), 2)

    def test_old_{{event}}_redelivered_within_the_window_is_dropped(self):
        old = self.at - 3_600_000
        self.send(message("{{eid_a}}", occurred_at=old))
        self.clock.advance(10)
        report = self.send(message("{{eid_a}}", occurred_at=old))
        self.assertEqual((report.accepted, report.duplicates), (0, 1))

    def test_simultaneous_{{events}}_for_one_{{entity}}_all_count(self):
        report = self.send(message("{{eid_a}}", {{qty_f}}=2, occurred_at=self.at),
                           message("{{eid_b}}", {{qty_f}}=5, occurred_at=self.at))
        self.assertEqual((report.accepted, report.duplicates), (2, 0))
        self.assertEqual(self.activity.total("{{ref_a}}"), 7)

    def test_a_full_seen_set_still_drops_recent_redeliveries(self):
        pipeline, activity, _ = build_pipeline(
            Settings(dedup_window_seconds=300, max_event_age_seconds=86_400, seen_capacity=2), clock=self.clock)
        batch = [message(f"{{eid_a}}-{n}", {{ref_f}}=f"{{ref_a}}-{n}", occurred_at=self.at) for n in range(3)]
        self.assertEqual(pipeline.ingest(batch).accepted, 3)
        self.clock.advance(1)
        report = pipeline.ingest([batch[2], batch[1], batch[0]])
        self.assertEqual((report.accepted, report.duplicates), (1, 2))
        self.assertEqual([activity.count(f"{{ref_a}}-{n}") for n in range(3)], [2, 1, 1])

    def test_a_key_seen_again_after_the_window_is_recent_again(self):
        seen = SeenSet(window_ms=1_000, capacity=2)
        seen.first_sighting("a", 0)
        seen.first_sighting("b", 500)
        self.assertTrue(seen.first_sighting("a", 1_000))
        self.assertTrue(seen.first_sighting("c", 1_100))
        self.assertFalse(seen.first_sighting("a", 1_200))
        self.assertTrue(seen.first_sighting("b", 1_300))

    def test_redelivery_at_the_window_end_is_processed_again(self):
        self.send(message("{{eid_a}}", occurred_at=self.at))
        self.clock.advance(300)
        self.assertEqual(self.send(message("{{eid_a}}", occurred_at=self.at)).accepted, 1)
        self.assertEqual(self.activity.count("{{ref_a}}"), 2)

    def test_distinct_{{events}}_for_one_{{entity}}_all_count(self):
        report = self.send(*(message(f"{{eid_a}}-{n}", {{qty_f}}=n, occurred_at=self.at + n) for n in range(1, 5)))
        self.assertEqual((report.accepted, report.duplicates), (4, 0))
        self.assertEqual(self.activity.total("{{ref_a}}"), 10)

    def test_distinct_{{events}}_across_batches(self):
        self.send(message("{{eid_a}}", occurred_at=self.at))
        self.clock.advance(1)
        self.send(message("{{eid_b}}", occurred_at=self.at + 1))
        self.clock.advance(1)
        self.send(message("{{eid_a}}", occurred_at=self.at))
        self.assertEqual(self.activity.count("{{ref_a}}"), 2)
        self.assertEqual(self.pipeline.stats()["duplicates"], 1)

    def test_keys_are_short_and_stable(self):
        self.send(message("{{eid_a}}", {{qty_f}}=2, occurred_at=self.at),
                  message("{{eid_b}}", {{qty_f}}=5, {{cat_f}}="{{cat_b}}", occurred_at=self.at))
        self.assertEqual(self.totals.totals(), {"{{cat_a}}": 2, "{{cat_b}}": 5})
        self.assertEqual(self.pipeline.stats()["remembered_keys"], 2)

    def test_keys_name_{{events}}_compactly(self):
        envelope = parse_envelope(message("{{eid_a}}", occurred_at=self.at), received_at=self.at + 1,
                                  max_age_ms=60_000)
        key = idempotency_key(envelope)
        self.assertEqual(len(key), 32)
        self.assertEqual(key, key.lower())
        int(key, 16)

    def test_default_wiring_reads_the_settings_file(self):
        pipeline, activity, _ = build_pipeline()
        now = time.time_ns() // 1_000_000
        report = pipeline.ingest([message("{{eid_a}}", occurred_at=now - 1_000),
                                  message("{{eid_a}}", occurred_at=now - 1_000)])
        self.assertEqual((report.accepted, report.duplicates), (1, 1))
        self.assertEqual(activity.count("{{ref_a}}"), 1)

    def test_same_id_from_two_sources_counts_twice(self):
        report = self.send(message("{{eid_a}}", source="{{source_a}}", occurred_at=self.at),
                           message("{{eid_a}}", source="{{source_b}}", occurred_at=self.at))
        self.assertEqual(report.accepted, 2)

    def test_redelivery_through_the_handler(self):
        status, body = handle_batch(self.pipeline, {"{{events}}": [message("{{eid_a}}", occurred_at=self.at),
                                                          message("{{eid_b}}", occurred_at=self.at)]})
        self.assertEqual((status, body["accepted"]), (200, 2))
        self.clock.advance(60)
        status, body = handle_batch(self.pipeline, {"{{events}}": [message("{{eid_b}}", occurred_at=self.at),
                                                          message("{{eid_c}}", occurred_at=self.at)]})
        self.assertEqual((status, body["accepted"], body["duplicates"]), (200, 1, 1))
        status, stats = handle_stats(self.pipeline)
        self.assertEqual((stats["accepted"], stats["duplicates"]), (3, 1))

    def test_every_{{event}}_of_a_large_batch_is_processed(self):
        pipeline, activity, _ = build_pipeline(
            Settings(dedup_window_seconds=300, max_event_age_seconds=86_400, batch_size=3), clock=self.clock)
        report = pipeline.ingest([message(f"{{eid_a}}-{n}", {{ref_f}}=f"{{ref_a}}-{n}", occurred_at=self.at)
                                  for n in range(10)])
        self.assertEqual(report.accepted, 10)
        self.assertEqual([activity.count(f"{{ref_a}}-{n}") for n in range(10)], [1] * 10)

    def test_consumer_recovering_on_the_last_retry_gets_the_{{event}}(self):
        consumer = Flaky(2)
        pipeline, activity, _ = build_pipeline(self.settings, clock=self.clock, consumers=(consumer,))
        report = pipeline.ingest([message("{{eid_a}}", occurred_at=self.at)])
        self.assertEqual((report.accepted, report.failed, consumer.calls), (1, 0, 3))

    def test_failed_{{event}}_is_taken_on_redelivery(self):
        consumer = Flaky(3)
        pipeline, activity, _ = build_pipeline(self.settings, clock=self.clock, consumers=(consumer,))
        self.assertEqual(pipeline.ingest([message("{{eid_a}}", occurred_at=self.at)]).failed, 1)
        self.assertEqual(len(pipeline.dead_letters), 1)
        report = pipeline.ingest([message("{{eid_a}}", occurred_at=self.at)])
        self.assertEqual((report.accepted, report.duplicates), (1, 0))
'''
