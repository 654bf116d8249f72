"""Python visible and hidden tests of the stock-reservation template."""

RACING = '''

class TrackedLock:
    """A re-entrant lock that knows which thread holds it."""

    def __init__(self):
        self._lock = threading.RLock()
        self._owner = None
        self._depth = 0

    def acquire(self, blocking=True, timeout=-1):
        acquired = self._lock.acquire(blocking, timeout)
        if acquired:
            self._owner = threading.get_ident()
            self._depth += 1
        return acquired

    def release(self):
        self._depth -= 1
        if self._depth == 0:
            self._owner = None
        self._lock.release()

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, *exc):
        self.release()

    def held_here(self):
        return self._owner == threading.get_ident()


class RacingRepository({{RepoCls}}):
    """Storage whose unlocked readers of held {{qty_h}} wait for each other while ``barrier`` is set.

    A reader holding the {{resource_h}} lock goes straight on: nobody can interleave
    with it.  Two requests that read the held {{qty_h}} without the lock meet at the
    barrier and go on together, which is exactly the interleaving that lets both
    of them see the same free {{cap_h}}.
    """

    def __init__(self):
        super().__init__()
        self.barrier = None
        self._tracked = {}
        self._tracked_guard = threading.Lock()

    def lock_for(self, code):
        with self._tracked_guard:
            return self._tracked.setdefault(code, TrackedLock())

    def held_{{qty_f}}(self, code, now):
        value = super().held_{{qty_f}}(code, now)
        barrier = self.barrier
        if barrier is not None and not self.lock_for(code).held_here():
            try:
                barrier.wait()
            except threading.BrokenBarrierError:
                pass
        return value


def race(repository, calls, rendezvous_seconds=2.0):
    """Run ``calls`` on parallel threads; each outcome is a result or the exception raised."""
    repository.barrier = threading.Barrier(len(calls), timeout=rendezvous_seconds)
    outcomes = [None] * len(calls)

    def run(index, call):
        try:
            outcomes[index] = call()
        except Exception as exc:
            outcomes[index] = exc

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    repository.barrier = None
    return outcomes
'''

TEST_MODELS = '''import unittest

{{imports}}


class HoldTest(unittest.TestCase):
    def make(self, **changes):
        values = dict(hold_id="H-1", {{resource}}="{{res_a}}", {{ref_f}}="{{ref_a}}", {{qty_f}}=2,
                      placed_at=100.0, expires_at=160.0)
        values.update(changes)
        return Hold(**values)

    def test_live_before_expiry(self):
        hold = self.make()
        self.assertFalse(hold.lapsed(159.0))
        self.assertTrue(hold.takes_{{cap_f}}(159.0))

    def test_lapsed_well_after_expiry(self):
        hold = self.make()
        self.assertTrue(hold.lapsed(200.0))
        self.assertFalse(hold.takes_{{cap_f}}(200.0))

    def test_confirmed_hold_always_counts(self):
        hold = self.make().with_state(CONFIRMED)
        self.assertTrue(hold.takes_{{cap_f}}(10_000.0))

    def test_to_dict(self):
        self.assertEqual(self.make().to_dict()["state"], HELD)
'''

TEST_SERVICE = '''import unittest

{{imports}}


class {{SvcCls}}Test(unittest.TestCase):
    def setUp(self):
        self.clock = ManualClock(1000)
        self.settings = Settings(hold_ttl_seconds=60, max_hold_{{qty_f}}=10, sweep_batch_size=2)
        self.service = build_service(self.settings, clock=self.clock)
        self.service.register_{{resource}}("{{res_a}}", 5)

    def test_hold_takes_{{cap_f}}(self):
        hold = self.service.{{fn_hold}}("{{res_a}}", "{{ref_a}}", 2)
        self.assertEqual(hold.state, "held")
        self.assertEqual(self.service.available("{{res_a}}"), 3)

    def test_too_large_hold_is_refused(self):
        self.service.{{fn_hold}}("{{res_a}}", "{{ref_a}}", 4)
        with self.assertRaises({{ErrExhausted}}):
            self.service.{{fn_hold}}("{{res_a}}", "{{ref_b}}", 2)

    def test_unknown_{{resource}}(self):
        with self.assertRaises({{ErrUnknownRes}}):
            self.service.{{fn_hold}}("nowhere", "{{ref_a}}", 1)

    def test_{{qty_f}}_limits(self):
        for bad in (0, -1, 11):
            with self.assertRaises({{ErrInvalid}}):
                self.service.{{fn_hold}}("{{res_a}}", "{{ref_a}}", bad)

    def test_confirmed_hold_survives_expiry(self):
        hold = self.service.{{fn_hold}}("{{res_a}}", "{{ref_a}}", 2)
        self.service.confirm(hold.hold_id)
        self.clock.advance(600)
        self.assertEqual(self.service.available("{{res_a}}"), 3)

    def test_lapsed_hold_cannot_be_confirmed(self):
        hold = self.service.{{fn_hold}}("{{res_a}}", "{{ref_a}}", 2)
        self.clock.advance(61)
        with self.assertRaises({{ErrConflict}}):
            self.service.confirm(hold.hold_id)

    def test_{{fn_release}}_frees_{{cap_f}}(self):
        hold = self.service.{{fn_hold}}("{{res_a}}", "{{ref_a}}", 5)
        self.service.{{fn_release}}(hold.hold_id)
        self.assertEqual(self.service.available("{{res_a}}"), 5)

    def test_sweep_marks_lapsed_holds(self):
        for ref in ("{{ref_a}}", "{{ref_b}}", "{{ref_c}}"):
            self.service.{{fn_hold}}("{{res_a}}", ref, 1)
        self.clock.advance(120)
        self.assertEqual(self.service.sweep(), 3)
        self.assertEqual(self.service.sweep(), 0)
        self.assertEqual(self.service.snapshot("{{res_a}}")["held"], 0)
{{herring_test}}'''

HERRING_TEST = '''

class SweepUnderLoadTest(unittest.TestCase):
    def test_sweep_keeps_up_with_parallel_holds(self):
        clock = ManualClock(0)
        repository = RacingRepository()
        service = build_service(Settings(hold_ttl_seconds=30), clock=clock, repository=repository)
        service.register_{{resource}}("{{res_a}}", 4)
        service.{{fn_hold}}("{{res_a}}", "{{ref_a}}", 4)
        clock.advance(30)
        self.assertEqual(service.sweep(), 1)
        outcomes = race(repository, [
            lambda: service.{{fn_hold}}("{{res_a}}", "{{ref_b}}", 3),
            lambda: service.{{fn_hold}}("{{res_a}}", "{{ref_c}}", 3),
        ])
        placed = [o for o in outcomes if not isinstance(o, Exception)]
        self.assertEqual(len(placed), 1)
        self.assertLessEqual(service.snapshot("{{res_a}}")["held"], 4)
'''

TEST_API = '''import unittest

{{imports}}


class HandlerTest(unittest.TestCase):
    def setUp(self):
        self.clock = ManualClock(50)
        self.service = build_service(Settings(hold_ttl_seconds=60, max_hold_{{qty_f}}=8), clock=self.clock)
        self.service.register_{{resource}}("{{res_a}}", 6)

    def test_hold_then_availability(self):
        status, body = handle_{{fn_hold}}(self.service, "{{res_a}}", {"{{ref_f}}": "{{ref_a}}", "{{qty_f}}": "2"})
        self.assertEqual(status, 201)
        self.assertEqual(body["{{qty_f}}"], 2)
        status, body = handle_availability(self.service, "{{res_a}}")
        self.assertEqual((status, body["free"], body["held"]), (200, 4, 2))

    def test_malformed_{{qty_f}}(self):
        status, body = handle_{{fn_hold}}(self.service, "{{res_a}}", {"{{ref_f}}": "{{ref_a}}", "{{qty_f}}": "two"})
        self.assertEqual((status, body["error"]["code"]), (400, "invalid"))

    def test_full_{{resource}}_answers_conflict(self):
        handle_{{fn_hold}}(self.service, "{{res_a}}", {"{{ref_f}}": "{{ref_a}}", "{{qty_f}}": 6})
        status, body = handle_{{fn_hold}}(self.service, "{{res_a}}", {"{{ref_f}}": "{{ref_b}}", "{{qty_f}}": 1})
        self.assertEqual((status, body["error"]["code"]), (409, "exhausted"))

    def test_unknown_hold(self):
        status, body = handle_confirm(self.service, "H-404")
        self.assertEqual(status, 404)

    def test_sweep(self):
        handle_{{fn_hold}}(self.service, "{{res_a}}", {"{{ref_f}}": "{{ref_a}}", "{{qty_f}}": 1})
        self.clock.advance(3600)
        self.assertEqual(handle_sweep(self.service), (200, {"expired": 1}))
'''

HIDDEN = '''import threading
import unittest

{{imports}}
''' + RACING + '''

class ParallelHoldTest(unittest.TestCase):
    def setUp(self):
        self.clock = ManualClock(500)
        self.repository = RacingRepository()
        self.service = build_service(
            Settings(hold_ttl_seconds=90, max_hold_{{qty_f}}=10), clock=self.clock, repository=self.repository
        )
        self.service.register_{{resource}}("{{res_a}}", 5)

    def test_parallel_holds_never_exceed_{{cap_f}}(self):
        outcomes = race(self.repository, [
            lambda: self.service.{{fn_hold}}("{{res_a}}", "{{ref_a}}", 3),
            lambda: self.service.{{fn_hold}}("{{res_a}}", "{{ref_b}}", 3),
        ])
        placed = [o for o in outcomes if isinstance(o, Hold)]
        refused = [o for o in outcomes if isinstance(o, {{ErrExhausted}})]
        self.assertEqual((len(placed), len(refused)), (1, 1), outcomes)
        self.assertEqual(self.service.snapshot("{{res_a}}")["held"], 3)
        self.assertEqual(self.service.available("{{res_a}}"), 2)

    def test_parallel_requests_through_handlers(self):
        outcomes = race(self.repository, [
            lambda: handle_{{fn_hold}}(self.service, "{{res_a}}", {"{{ref_f}}": ref, "{{qty_f}}": 2})
            for ref in ("{{ref_a}}", "{{ref_b}}", "{{ref_c}}")
        ])
        statuses = sorted(status for status, _ in outcomes)
        self.assertEqual(statuses, [201, 201, 409])
        status, body = handle_availability(self.service, "{{res_a}}")
        self.assertEqual((body["held"], body["free"]), (4, 1))


class {{Resource}}RulesTest(unittest.TestCase):
    def setUp(self):
        self.clock = ManualClock(1000)
        self.service = build_service(
            Settings(hold_ttl_seconds=45, max_hold_{{qty_f}}=10, hold_id_prefix="HX"), clock=self.clock
        )
        self.service.register_{{resource}}("{{res_a}}", 6)
        self.service.register_{{resource}}("{{res_b}}", 2)

    def test_hold_records_what_was_asked(self):
        hold = self.service.{{fn_hold}}("{{res_a}}", "{{ref_a}}", 4)
        self.assertTrue(hold.hold_id.startswith("HX-"))
        self.assertEqual(
            (hold.{{resource}}, hold.{{ref_f}}, hold.{{qty_f}}, hold.placed_at, hold.expires_at, hold.state),
            ("{{res_a}}", "{{ref_a}}", 4, 1000, 1045, "held"),
        )

    def test_exact_fit_is_allowed(self):
        self.service.{{fn_hold}}("{{res_a}}", "{{ref_a}}", 4)
        self.service.{{fn_hold}}("{{res_a}}", "{{ref_b}}", 2)
        self.assertEqual(self.service.available("{{res_a}}"), 0)

    def test_one_over_is_refused(self):
        self.service.{{fn_hold}}("{{res_a}}", "{{ref_a}}", 4)
        with self.assertRaises({{ErrExhausted}}) as caught:
            self.service.{{fn_hold}}("{{res_a}}", "{{ref_b}}", 3)
        self.assertIn("only 2 ", caught.exception.message)
        self.assertEqual(caught.exception.details["requested"], 3)
        self.assertEqual(self.service.snapshot("{{res_a}}")["held"], 4)

    def test_{{resources}}_are_independent(self):
        self.service.{{fn_hold}}("{{res_a}}", "{{ref_a}}", 6)
        self.service.{{fn_hold}}("{{res_b}}", "{{ref_b}}", 2)
        self.assertEqual((self.service.available("{{res_a}}"), self.service.available("{{res_b}}")), (0, 0))

    def test_hold_counts_until_its_expiry(self):
        self.service.{{fn_hold}}("{{res_a}}", "{{ref_a}}", 6)
        self.clock.advance(44)
        with self.assertRaises({{ErrExhausted}}):
            self.service.{{fn_hold}}("{{res_a}}", "{{ref_b}}", 1)
        self.clock.advance(10)
        self.assertEqual(self.service.{{fn_hold}}("{{res_a}}", "{{ref_b}}", 6).{{qty_f}}, 6)

    def test_{{fn_release}}_then_hold_again(self):
        hold = self.service.{{fn_hold}}("{{res_b}}", "{{ref_a}}", 2)
        self.service.{{fn_release}}(hold.hold_id)
        self.assertEqual(self.service.{{fn_hold}}("{{res_b}}", "{{ref_b}}", 2).{{ref_f}}, "{{ref_b}}")

    def test_sequential_holds_add_up(self):
        for ref in ("{{ref_a}}", "{{ref_b}}", "{{ref_c}}"):
            self.service.{{fn_hold}}("{{res_a}}", ref, 2)
        with self.assertRaises({{ErrExhausted}}):
            self.service.{{fn_hold}}("{{res_a}}", "{{ref_a}}", 1)

    def test_capacity_returns_at_expiry_instant(self):
        self.service.{{fn_hold}}("{{res_b}}", "{{ref_a}}", 2)
        self.clock.advance(45)
        self.assertEqual(self.service.available("{{res_b}}"), 2)
        self.assertEqual(self.service.{{fn_hold}}("{{res_b}}", "{{ref_b}}", 2).{{qty_f}}, 2)

    def test_{{fn_release}}_is_idempotent(self):
        hold = self.service.{{fn_hold}}("{{res_b}}", "{{ref_a}}", 1)
        self.service.{{fn_release}}(hold.hold_id)
        self.service.{{fn_release}}(hold.hold_id)
        self.assertIsNone(self.service.{{fn_release}}("HX-999999"))
        self.assertEqual(handle_{{fn_release}}(self.service, "HX-999999"), (200, {"hold": None}))
        self.assertEqual(self.service.available("{{res_b}}"), 2)

    def test_availability_is_never_negative_after_resize(self):
        self.service.{{fn_hold}}("{{res_a}}", "{{ref_a}}", 5)
        self.service.resize_{{resource}}("{{res_a}}", 3)
        self.assertEqual(self.service.available("{{res_a}}"), 0)
        status, body = handle_availability(self.service, "{{res_a}}")
        self.assertEqual((body["free"], body["held"]), (0, 5))
'''
