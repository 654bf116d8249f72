"""Python (unittest, asyncio) visible and hidden tests of the buffered-writer template."""

GUARD_RETRIES = "test_retries_count_attempts_after_the_first"
GUARD_THRESHOLD = "test_full_batch_is_archived_immediately"
HERRING_TEST = "test_archive_acknowledgement_after_close"

FIXTURES = '''

OWNER_A = "{{owner_a}}"
OWNER_B = "{{owner_b}}"
CATEGORY = "{{cat0}}"


def make(number, {{owner}}=OWNER_A, {{amount_f}}=10):
    return {{Event}}(
        {{id_f}}=f"{{id_prefix}}-{number:04d}",
        {{owner}}={{owner}},
        {{cat_f}}=CATEGORY,
        {{amount_f}}={{amount_f}},
        {{ts_f}}=1_700_000_000 + number,
    )


class Pauses:
    """Stands in for asyncio.sleep and remembers the requested pauses."""

    def __init__(self):
        self.requested = []

    async def __call__(self, seconds):
        self.requested.append(seconds)
'''

TEST_BUFFER = '''import unittest

{{imports}}


class BatchBufferTest(unittest.TestCase):
    def test_take_empties_the_buffer_in_order(self):
        buffer = BatchBuffer()
        for item in ("a", "b", "c"):
            buffer.add(item)
        self.assertEqual(buffer.oldest(), "a")
        self.assertEqual(buffer.take(), ["a", "b", "c"])
        self.assertEqual(len(buffer), 0)
        self.assertIsNone(buffer.oldest())
'''

TEST_MODELS = '''import unittest

{{imports}}


class Parse{{Event}}Test(unittest.TestCase):
    def raw(self, **changes):
        values = {"{{id_f}}": "{{id_prefix}}-0001", "{{owner}}": " {{owner_a}} ", "{{cat_f}}": "{{cat0}}",
                  "{{amount_f}}": "25", "{{ts_f}}": "1700000000"}
        values.update(changes)
        return values

    def test_parses_and_trims(self):
        parsed = parse_{{event}}(self.raw())
        self.assertEqual((parsed.{{owner}}, parsed.{{amount_f}}), ("{{owner_a}}", 25))

    def test_missing_field_is_named(self):
        with self.assertRaises({{ErrInvalid}}) as caught:
            parse_{{event}}(self.raw(**{"{{cat_f}}": ""}))
        self.assertIn("{{cat_f}}", caught.exception.message)

    def test_negative_{{amount_f}}_is_rejected(self):
        with self.assertRaises({{ErrInvalid}}):
            parse_{{event}}(self.raw(**{"{{amount_f}}": "-1"}))

    def test_batch_totals(self):
        batch = Batch(sequence=1, {{events}}=(parse_{{event}}(self.raw()), parse_{{event}}(self.raw(**{"{{amount_f}}": "5"}))))
        self.assertEqual((batch.size, batch.total_{{amount_f}}), (2, 30))
'''

TEST_WRITER = '''import asyncio
import unittest

{{imports}}
''' + FIXTURES + '''

class WriterTest(unittest.IsolatedAsyncioTestCase):
    def setUp(self):
        self.sink = {{SinkCls}}()
        self.pauses = Pauses()
        self.writer = build_writer(Settings(max_batch=3, retries=2, retry_delay=0.5), self.sink, self.pauses)

    async def test_batches_follow_the_size_limit(self):
        for number in range(1, 8):
            await self.writer.record(make(number))
        self.assertEqual([batch.size for batch in self.sink.batches], [3, 3])
        self.assertEqual(self.writer.pending, 1)
        self.assertEqual([batch.sequence for batch in self.sink.batches], [1, 2])

    async def test_flush_writes_a_partial_batch(self):
        await self.writer.record(make(1))
        self.assertEqual(await self.writer.flush(), 1)
        self.assertEqual(self.writer.written, 1)
        self.assertIsNone(await self.writer.flush())

    async def test_duplicate_{{id_f}}s_are_ignored(self):
        self.assertTrue(await self.writer.record(make(1)))
        self.assertFalse(await self.writer.record(make(1)))
        self.assertEqual((self.writer.pending, self.writer.metrics.duplicates), (1, 1))

    async def test_periodic_flush_until_stopped(self):
        stop = asyncio.Event()
        await self.writer.record(make(1))

        async def pause(seconds):
            self.pauses.requested.append(seconds)
            if len(self.pauses.requested) == 2:
                stop.set()

        receipts = await flush_periodically(self.writer, 5, stop, sleep=pause)
        self.assertEqual(receipts, [1])
        self.assertEqual(export_lines(self.sink).count("\\n"), 1)

    async def test_closed_writer_refuses_{{events}}(self):
        await self.writer.close()
        with self.assertRaises(WriterClosed):
            await self.writer.record(make(1))

    async def test_outage_longer_than_the_retries_is_reported(self):
        self.sink.fail_next(5)
        with self.assertRaises({{ErrUnavailable}}):
            for number in range(1, 4):
                await self.writer.record(make(number))
'''

HERRING_TEST_TEXT = '''

class ArchiveAcknowledgementTest(unittest.IsolatedAsyncioTestCase):
    async def ''' + HERRING_TEST + '''(self):
        sink = {{SinkCls}}()
        pauses = Pauses()
        writer = build_writer(Settings(max_batch=3, retries=2, retry_delay=0.5), sink, pauses)
        for number in range(1, 6):
            await writer.record(make(number))
        sink.fail_next(1)
        await writer.close()
        self.assertEqual(len(sink.{{events}}()), 5)
        self.assertEqual(pauses.requested, [0.5])
'''

TEST_HANDLERS = '''import unittest

{{imports}}


class HandlerTest(unittest.IsolatedAsyncioTestCase):
    def setUp(self):
        self.sink = {{SinkCls}}()
        self.writer = build_writer(Settings(max_batch=2, retries=1, retry_delay=0.1), self.sink)

    def item(self, number, **changes):
        values = {"{{id_f}}": f"{{id_prefix}}-{number:04d}", "{{owner}}": "{{owner_a}}", "{{cat_f}}": "{{cat0}}",
                  "{{amount_f}}": "7", "{{ts_f}}": "1700000000"}
        values.update(changes)
        return values

    async def test_ingest_reports_rejected_items(self):
        status, payload = await handle_ingest(self.writer, [self.item(1), self.item(2, **{"{{amount_f}}": "x"})])
        self.assertEqual(status, 202)
        self.assertEqual(payload["accepted"], 1)
        self.assertEqual(payload["rejected"][0]["item"], 2)
        self.assertEqual(payload["pending"], 1)

    async def test_flush_and_summary(self):
        await handle_ingest(self.writer, [self.item(1), self.item(2), self.item(3, **{"{{owner}}": "{{owner_b}}"})])
        status, payload = await handle_flush(self.writer)
        self.assertEqual((status, payload["sequence"], payload["written"]), (200, 2, 3))
        status, summary = await handle_summary(self.sink)
        self.assertEqual(summary["batches"], 2)
        self.assertEqual(summary["{{owners}}"]["{{owner_b}}"], 7)

    async def test_metrics(self):
        await handle_ingest(self.writer, [self.item(1), self.item(1), self.item(2), self.item(3)])
        status, payload = await handle_metrics(self.writer)
        self.assertEqual(status, 200)
        self.assertEqual((payload["batches"], payload["duplicates"], payload["pending"]), (1, 1, 1))

    async def test_settings_from_the_environment(self):
        settings = from_environment({"{{ENV}}_MAX_BATCH": "9", "{{ENV}}_RETRY_DELAY": "0.75"})
        self.assertEqual((settings.max_batch, settings.retry_delay), (9, 0.75))

    async def test_export_then_drop(self):
        await handle_ingest(self.writer, [self.item(1), self.item(2), self.item(3)])
        status, payload = await handle_export(self.sink, through="1")
        self.assertEqual((status, payload["lines"].count("\\n"), payload["dropped"]), (200, 2, 1))
        self.assertEqual(self.sink.batches, [])

    async def test_ingest_after_close_is_refused(self):
        await handle_close(self.writer)
        status, payload = await handle_ingest(self.writer, [self.item(1)])
        self.assertEqual(status, 409)
        self.assertEqual(payload["error"]["code"], "closed")
'''

HIDDEN_WRITER = '''import unittest

{{imports}}
''' + FIXTURES + '''

class ArchiveCompletenessTest(unittest.IsolatedAsyncioTestCase):
    def setUp(self):
        self.sink = {{SinkCls}}()
        self.pauses = Pauses()
        self.writer = build_writer(Settings(max_batch=4, retries=2, retry_delay=0.125), self.sink, self.pauses)

    async def test_close_archives_the_partial_batch(self):
        for number in range(1, 7):
            await self.writer.record(make(number))
        written = await self.writer.close()
        self.assertEqual(written, 6)
        self.assertEqual([batch.size for batch in self.sink.batches], [4, 2])
        self.assertEqual(self.writer.pending, 0)
        self.assertTrue(self.writer.closed)

    async def test_close_twice_writes_once(self):
        await self.writer.record(make(1))
        self.assertEqual(await self.writer.close(), 1)
        self.assertEqual(await self.writer.close(), 1)
        self.assertEqual(len(self.sink.batches), 1)

    async def test_close_then_record_is_refused(self):
        await self.writer.record(make(1))
        await self.writer.close()
        with self.assertRaises(WriterClosed):
            await self.writer.record(make(2))
        self.assertEqual([item.{{id_f}} for item in self.sink.{{events}}()], ["{{id_prefix}}-0001"])

    async def test_short_outage_is_ridden_out(self):
        self.sink.fail_next(2)
        for number in range(1, 5):
            await self.writer.record(make(number))
        self.assertEqual(len(self.sink.batches), 1)
        self.assertEqual(self.pauses.requested, [0.125, 0.25])
        self.assertEqual(self.sink.attempts, 3)
        self.assertEqual(self.writer.written, 4)

    async def test_outage_during_close_is_ridden_out(self):
        await self.writer.record(make(1, OWNER_B, 40))
        self.sink.fail_next(1)
        self.assertEqual(await self.writer.close(), 1)
        self.assertEqual(self.pauses.requested, [0.125])
        self.assertEqual(archive_summary(self.sink)["{{owners}}"], {OWNER_B: 40})

    async def test_long_outage_fails_after_every_retry(self):
        self.sink.fail_next(3)
        await self.writer.record(make(1))
        with self.assertRaises({{ErrUnavailable}}):
            await self.writer.flush()
        self.assertEqual(self.sink.attempts, 3)
        self.assertEqual(self.pauses.requested, [0.125, 0.25])

    async def test_batches_refused_by_an_outage_can_be_replayed(self):
        self.sink.fail_next(3)
        await self.writer.record(make(1))
        with self.assertRaises({{ErrUnavailable}}):
            await self.writer.flush()
        self.assertEqual(len(self.writer.dead_letters), 1)
        status, payload = await handle_replay(self.writer, self.sink)
        self.assertEqual((status, payload["replayed"], payload["still_failing"]), (200, 1, 0))
        self.assertEqual(len(self.sink.{{events}}()), 1)

    async def test_handlers_archive_everything_on_close(self):
        items = [{"{{id_f}}": f"{{id_prefix}}-{n:04d}", "{{owner}}": OWNER_A, "{{cat_f}}": CATEGORY,
                  "{{amount_f}}": str(n), "{{ts_f}}": "1700000000"} for n in range(1, 7)]
        status, payload = await handle_ingest(self.writer, items)
        self.assertEqual((status, payload["pending"]), (202, 2))
        status, payload = await handle_close(self.writer)
        self.assertEqual((status, payload["written"], payload["pending"]), (200, 6, 0))
        status, summary = await handle_summary(self.sink)
        self.assertEqual((summary["{{events}}"], summary["largest_batch"]), (6, 4))
        self.assertEqual(summary["{{owners}}"], {OWNER_A: 21})
'''

HIDDEN_RULES = '''import unittest

{{imports}}
''' + FIXTURES + '''

class WriterRulesTest(unittest.IsolatedAsyncioTestCase):
    async def ''' + GUARD_RETRIES + '''(self):
        sink = {{SinkCls}}()
        pauses = Pauses()
        batch = Batch(sequence=7, {{events}}=(make(1),))
        sink.fail_next(2)
        self.assertEqual(await write_with_retry(sink, batch, 2, 0.125, sleep=pauses), 7)
        self.assertEqual(sink.attempts, 3)
        sink.fail_next(3)
        with self.assertRaises({{ErrUnavailable}}):
            await write_with_retry(sink, batch, 2, 0.125, sleep=pauses)

    async def ''' + GUARD_THRESHOLD + '''(self):
        sink = {{SinkCls}}()
        writer = build_writer(Settings(max_batch=3, retries=0, retry_delay=0), sink, Pauses())
        for number in range(1, 4):
            await writer.record(make(number))
        self.assertEqual([batch.size for batch in sink.batches], [3])
        self.assertEqual(writer.pending, 0)

    async def test_back_off_grows_with_each_try(self):
        sink = {{SinkCls}}()
        pauses = Pauses()
        sink.fail_next(3)
        self.assertEqual(await write_with_retry(sink, Batch(sequence=2, {{events}}=(make(1),)), 3, 0.125, sleep=pauses), 2)
        self.assertEqual(pauses.requested, [0.125, 0.25, 0.375])

    async def test_no_retries_means_one_try(self):
        sink = {{SinkCls}}()
        pauses = Pauses()
        sink.fail_next(1)
        with self.assertRaises({{ErrUnavailable}}):
            await write_with_retry(sink, Batch(sequence=1, {{events}}=(make(1),)), 0, 0.125, sleep=pauses)
        self.assertEqual((sink.attempts, pauses.requested), (1, []))
'''
