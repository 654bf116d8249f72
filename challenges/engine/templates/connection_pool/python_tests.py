"""Python visible and hidden tests of the connection-pool template."""

CLOCK = '''

class ManualClock:
    def __init__(self, now=0.0):
        self.now = now

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds
'''

TEST_POOL = '''import unittest

{{imports}}
''' + CLOCK + '''

class ConnectionPoolTest(unittest.TestCase):
    def setUp(self):
        self.backend = Backend()
        self.clock = ManualClock(100.0)
        self.pool = ConnectionPool(self.backend.connect, max_size=2, checkout_timeout=0.05,
                                   idle_check_seconds=30, clock=self.clock)

    def test_reuses_returned_connection(self):
        first = self.pool.checkout()
        self.pool.checkin(first)
        self.assertIs(self.pool.checkout(), first)
        self.assertEqual(self.pool.stats()["open"], 1)

    def test_exhausted_when_all_are_out(self):
        self.pool.checkout()
        self.pool.checkout()
        with self.assertRaises(PoolExhausted):
            self.pool.checkout()

    def test_context_manager_returns_connection(self):
        with self.pool.connection() as conn:
            self.assertTrue(conn.ping())
        self.assertEqual(self.pool.stats()["in_use"], 0)

    def test_dead_idle_connection_is_replaced(self):
        conn = self.pool.checkout()
        self.pool.checkin(conn)
        self.clock.advance(60)
        self.backend.restart()
        fresh = self.pool.checkout()
        self.assertIsNot(fresh, conn)
        self.assertTrue(fresh.ping())
        self.assertEqual(self.pool.stats()["discarded"], 1)

    def test_foreign_connection_is_refused(self):
        with self.assertRaises(ValueError):
            self.pool.checkin(self.backend.connect())
'''

TEST_SESSION = '''import unittest

{{imports}}


class TransactionTest(unittest.TestCase):
    def setUp(self):
        self.backend = Backend()
        self.pool = ConnectionPool(self.backend.connect, max_size=3, checkout_timeout=0.05,
                                   idle_check_seconds=30)

    def test_commit_on_success(self):
        with transaction(self.pool) as conn:
            conn.put("t", "k", 1)
        self.assertEqual(self.backend.read("t", "k"), 1)

    def test_rollback_on_error(self):
        with self.assertRaises(KeyError):
            with transaction(self.pool) as conn:
                conn.put("t", "k", 1)
                raise KeyError("k")
        self.assertIsNone(self.backend.read("t", "k"))

    def test_own_writes_are_visible_inside(self):
        with transaction(self.pool) as conn:
            conn.put("t", "k", 2)
            self.assertEqual(conn.get("t", "k"), 2)
            self.assertEqual(conn.scan("t"), {"k": 2})
'''

TEST_SERVICE = '''import unittest

{{imports}}


class {{Entity}}ServiceTest(unittest.TestCase):
    def setUp(self):
        self.service, self.pool = build_app(Settings(pool_size=4, checkout_timeout_seconds=0.05))

    def test_create_and_get(self):
        created = self.service.{{fn_create}}("{{owner_a}}", "{{label_a}}")
        self.assertEqual(self.service.get(created["{{id_f}}"]), created)
        self.assertEqual(created["{{status_f}}"], "{{status0}}")

    def test_advance_through_{{status_f}}(self):
        created = self.service.{{fn_create}}("{{owner_a}}", "{{label_a}}")
        advanced = self.service.advance(created["{{id_f}}"])
        self.assertEqual(advanced["{{status_f}}"], "{{status1}}")

    def test_unknown_{{entity}}(self):
        with self.assertRaises({{ErrMissing}}):
            self.service.get("{{id_prefix}}-99999")

    def test_list_for_{{owner}}(self):
        self.service.{{fn_create}}("{{owner_a}}", "{{label_a}}")
        self.service.{{fn_create}}("{{owner_b}}", "{{label_b}}")
        self.assertEqual([r["{{owner}}"] for r in self.service.list_for("{{owner_a}}")], ["{{owner_a}}"])

    def test_blank_{{label_f}}_is_refused(self):
        with self.assertRaises({{ErrInvalid}}):
            self.service.{{fn_create}}("{{owner_a}}", "  ")
'''

TEST_API = '''import unittest

{{imports}}


class HandlerTest(unittest.TestCase):
    def setUp(self):
        self.backend = Backend()
        self.service, self.pool = build_app(Settings(pool_size=2, checkout_timeout_seconds=0.05),
                                            backend=self.backend)

    def test_create_then_get(self):
        status, created = handle_create(self.service, {"{{owner}}": "{{owner_a}}", "{{label_f}}": "{{label_a}}"})
        self.assertEqual(status, 201)
        self.assertEqual(handle_get(self.service, created["{{id_f}}"]), (200, created))

    def test_missing_{{entity}}_is_404(self):
        status, body = handle_get(self.service, "{{id_prefix}}-404")
        self.assertEqual((status, body["error"]["code"]), (404, "not_found"))

    def test_health(self):
        status, stats = handle_health(self.pool)
        self.assertEqual((status, stats["max_size"]), (200, 2))
{{herring_test}}'''

HERRING_TEST = '''
    def test_pool_recovers_after_server_restart(self):
        handle_create(self.service, {"{{owner}}": "{{owner_a}}", "{{label_f}}": "{{label_a}}"})
        self.backend.restart()
        for _ in range(2):
            self.assertEqual(handle_get(self.service, "{{id_prefix}}-404")[0], 404)
        status, _ = handle_create(self.service, {"{{owner}}": "{{owner_b}}", "{{label_f}}": "{{label_b}}"})
        self.assertEqual(status, 201)
'''

HIDDEN = '''import unittest

{{imports}}
''' + CLOCK + '''

class ErrorPathTest(unittest.TestCase):
    def setUp(self):
        self.backend = Backend()
        self.clock = ManualClock(1_000.0)
        self.service, self.pool = build_app(
            Settings(pool_size=2, checkout_timeout_seconds=0.05, idle_check_seconds=30),
            backend=self.backend, clock=self.clock,
        )

    def test_failed_lookups_do_not_use_up_the_pool(self):
        for _ in range(3):
            with self.assertRaises({{ErrMissing}}):
                self.service.get("{{id_prefix}}-00404")
        created = self.service.{{fn_create}}("{{owner_a}}", "{{label_a}}")
        self.assertEqual(self.service.get(created["{{id_f}}"])["{{label_f}}"], "{{label_a}}")
        self.assertEqual(self.pool.stats()["in_use"], 0)

    def test_handlers_keep_answering_after_errors(self):
        for _ in range(3):
            self.assertEqual(handle_get(self.service, "{{id_prefix}}-00404")[0], 404)
        status, created = handle_create(self.service, {"{{owner}}": "{{owner_a}}", "{{label_f}}": "{{label_a}}"})
        self.assertEqual(status, 201)
        self.assertEqual(handle_advance(self.service, created["{{id_f}}"])[0], 200)
        self.assertEqual(handle_health(self.pool)[0], 200)

    def test_conflicts_return_their_connection(self):
        created = self.service.{{fn_create}}("{{owner_a}}", "{{label_a}}")
        for _ in range({{final_steps}}):
            self.service.advance(created["{{id_f}}"])
        for _ in range(3):
            self.assertEqual(handle_advance(self.service, created["{{id_f}}"])[0], 409)
            self.assertEqual(handle_cancel(self.service, created["{{id_f}}"])[0], 409)
        self.assertEqual(self.pool.stats()["in_use"], 0)
        self.assertEqual(handle_list(self.service, "{{owner_a}}")[0], 200)

    def test_error_inside_transaction_rolls_back_and_returns_connection(self):
        for _ in range(3):
            with self.assertRaises(LookupError):
                with transaction(self.pool) as conn:
                    conn.put("{{table}}", "scratch", {"{{owner}}": "x"})
                    raise LookupError("abandon")
        self.assertIsNone(self.backend.read("{{table}}", "scratch"))
        self.assertEqual(self.pool.stats()["in_use"], 0)

    def test_failed_transaction_leaves_no_writes(self):
        with self.assertRaises(LookupError):
            with transaction(self.pool) as conn:
                conn.put("{{table}}", "scratch", {"{{owner}}": "x"})
                raise LookupError("abandon")
        self.assertIsNone(self.backend.read("{{table}}", "scratch"))

    def test_lost_connection_is_discarded_not_reused(self):
        created = self.service.{{fn_create}}("{{owner_a}}", "{{label_a}}")
        self.backend.restart()
        self.assertEqual(self.service.get(created["{{id_f}}"])["{{id_f}}"], created["{{id_f}}"])
        for _ in range(3):
            self.service.get(created["{{id_f}}"])
        stats = self.pool.stats()
        self.assertEqual((stats["in_use"], stats["discarded"]), (0, 1))

    def test_pool_keeps_serving_across_server_restarts(self):
        created = self.service.{{fn_create}}("{{owner_a}}", "{{label_a}}")
        for _ in range(3):
            self.backend.restart()
            self.assertEqual(self.service.get(created["{{id_f}}"])["{{label_f}}"], "{{label_a}}")
        stats = self.pool.stats()
        self.assertEqual((stats["open"], stats["in_use"], stats["discarded"]), (1, 0, 3))

    def test_dead_idle_connections_give_their_place_back(self):
        first, second = self.pool.checkout(), self.pool.checkout()
        self.pool.checkin(first)
        self.pool.checkin(second)
        self.clock.advance(60)
        self.backend.restart()
        fresh = [self.pool.checkout(), self.pool.checkout()]
        self.assertTrue(all(conn.ping() for conn in fresh))
        self.assertEqual(self.pool.stats()["open"], 2)


class {{Entity}}FlowTest(unittest.TestCase):
    def setUp(self):
        self.backend = Backend()
        self.clock = ManualClock(1_000.0)
        self.service, self.pool = build_app(
            Settings(pool_size=3, checkout_timeout_seconds=0.05, idle_check_seconds=30),
            backend=self.backend, clock=self.clock,
        )

    def test_create_advance_cancel(self):
        first = self.service.{{fn_create}}("{{owner_a}}", "{{label_a}}")
        second = self.service.{{fn_create}}("{{owner_a}}", "{{label_b}}")
        self.assertNotEqual(first["{{id_f}}"], second["{{id_f}}"])
        self.assertEqual(self.service.advance(first["{{id_f}}"])["{{status_f}}"], "{{status1}}")
        self.service.{{fn_cancel}}(second["{{id_f}}"])
        self.assertEqual([r["{{id_f}}"] for r in self.service.list_for("{{owner_a}}")], [first["{{id_f}}"]])
        self.assertEqual(self.backend.read("{{table}}", first["{{id_f}}"])["{{status_f}}"], "{{status1}}")

    def test_request_after_server_restart_is_retried(self):
        created = self.service.{{fn_create}}("{{owner_a}}", "{{label_a}}")
        self.backend.restart()
        self.assertEqual(self.service.get(created["{{id_f}}"])["{{label_f}}"], "{{label_a}}")

    def test_connection_idle_for_exactly_the_check_interval_is_pinged(self):
        conn = self.pool.checkout()
        self.pool.checkin(conn)
        self.clock.advance(30)
        self.backend.restart()
        fresh = self.pool.checkout()
        self.assertTrue(fresh.ping())
        self.pool.checkin(fresh)

    def test_dead_connections_are_discarded_quietly(self):
        conn = self.pool.checkout()
        self.pool.checkin(conn)
        self.clock.advance(120)
        self.backend.restart()
        replacement = self.pool.checkout()
        self.assertTrue(replacement.ping())
        self.assertEqual(self.pool.stats()["discarded"], 1)
'''
