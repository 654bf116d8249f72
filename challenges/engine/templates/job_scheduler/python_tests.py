"""Python visible and hidden tests of the job-scheduler template.

Concurrency is tested deterministically: claimers meet at a barrier inside
the scheduler's tracing hook, so both are between the unlocked check and the
locked update at the same time; no test sleeps.
"""

RACE = '''

class ClaimRace:
    """Holds each claimer at the tracing hook until ``parties`` claimers arrived."""

    def __init__(self, parties=2):
        self._barrier = threading.Barrier(parties, timeout=5)
        self.winners = []

    def claim_attempt(self, key, worker):
        try:
            self._barrier.wait()
        except threading.BrokenBarrierError:
            pass

    def claimed(self, key, worker):
        self.winners.append((key, worker))


def claim_concurrently(scheduler, key, workers):
    results = {}

    def claim(worker):
        results[worker] = scheduler.claim(key, worker)

    threads = [threading.Thread(target=claim, args=(worker,), daemon=True) for worker in workers]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    return results
'''

TEST_QUEUE = '''import unittest

{{imports}}


class ReadyQueueTest(unittest.TestCase):
    def job(self, key, priority=5):
        return Job(key, "{{kind_a}}", priority)

    def test_pop_returns_pushed_key(self):
        queue = ReadyQueue()
        {{t_push}}self.job("{{key_a}}"))
        self.assertEqual({{t_len}}, 1)
        self.assertEqual({{t_pop}}, "{{key_a}}")
        self.assertIsNone({{t_pop}})

    def test_equal_priorities_keep_push_order(self):
        queue = ReadyQueue()
        for key in ("{{key_c}}", "{{key_a}}", "{{key_b}}"):
            {{t_push}}self.job(key))
        self.assertEqual({{t_peek}}10), ["{{key_c}}", "{{key_a}}", "{{key_b}}"])

    def test_discarded_keys_are_skipped(self):
        queue = ReadyQueue()
        {{t_push}}self.job("{{key_a}}"))
        {{t_push}}self.job("{{key_b}}"))
        {{t_discard}}"{{key_a}}")
        self.assertFalse({{t_has_a}})
        self.assertEqual({{t_pop}}, "{{key_b}}")

    def test_peek_respects_limit(self):
        queue = ReadyQueue()
        for key in ("{{key_a}}", "{{key_b}}", "{{key_c}}"):
            {{t_push}}self.job(key))
        self.assertEqual(len({{t_peek}}2)), 2)
'''

TEST_SCHEDULER = '''import threading
import unittest

{{imports}}
''' + RACE + '''

class {{SchedulerCls}}Test(unittest.TestCase):
    def setUp(self):
        self.scheduler = build_scheduler(Settings())

    def test_job_without_dependencies_is_ready(self):
        job = self.scheduler.submit("{{key_a}}", "{{kind_a}}", 3)
        self.assertEqual(job.state, READY)
        self.assertEqual(self.scheduler.ready_jobs(), ["{{key_a}}"])

    def test_dependent_waits_until_dependency_is_done(self):
        self.scheduler.submit("{{key_a}}", "{{kind_a}}", 3)
        self.scheduler.submit("{{key_b}}", "{{kind_b}}", 3, depends_on=["{{key_a}}"])
        self.assertEqual(self.scheduler.job("{{key_b}}").state, PENDING)
        self.scheduler.claim("{{key_a}}", "w1")
        self.assertEqual(self.scheduler.complete("{{key_a}}", "w1"), ["{{key_b}}"])
        self.assertEqual(self.scheduler.job("{{key_b}}").state, READY)

    def test_second_claim_gets_nothing(self):
        self.scheduler.submit("{{key_a}}", "{{kind_a}}", 3)
        self.assertIsNotNone(self.scheduler.claim("{{key_a}}", "w1"))
        self.assertIsNone(self.scheduler.claim("{{key_a}}", "w2"))

    def test_failure_cancels_dependents(self):
        self.scheduler.submit("{{key_a}}", "{{kind_a}}", 3)
        self.scheduler.submit("{{key_b}}", "{{kind_b}}", 3, depends_on=["{{key_a}}"])
        self.scheduler.claim("{{key_a}}", "w1")
        self.assertEqual(self.scheduler.fail("{{key_a}}", "w1", "boom"), ["{{key_b}}"])
        self.assertEqual(self.scheduler.job("{{key_b}}").state, CANCELLED)

    def test_duplicate_key_conflicts(self):
        self.scheduler.submit("{{key_a}}", "{{kind_a}}", 3)
        with self.assertRaises(JobConflict):
            self.scheduler.submit("{{key_a}}", "{{kind_a}}", 3)

    def test_priority_out_of_range_is_invalid(self):
        with self.assertRaises({{ErrInvalid}}):
            self.scheduler.submit("{{key_a}}", "{{kind_a}}", Settings().max_priority + 1)

    def test_unknown_dependency_is_invalid(self):
        with self.assertRaises({{ErrInvalid}}):
            self.scheduler.submit("{{key_b}}", "{{kind_b}}", 3, depends_on=["{{key_z}}"])
'''

HERRING_TEST = '''

class DependencyChainTest(unittest.TestCase):
    def test_dependency_chain_finishes_in_order(self):
        scheduler = build_scheduler(Settings())
        scheduler.submit("{{key_c}}", "{{kind_a}}", 4)
        scheduler.submit("{{key_b}}", "{{kind_a}}", 4)
        self.assertEqual(scheduler.next_for("w1").key, "{{key_c}}")
        scheduler.submit("{{key_a}}", "{{kind_b}}", 4, depends_on=["{{key_c}}"])
        scheduler.complete("{{key_c}}", "w1")
        self.assertEqual(scheduler.ready_jobs(), ["{{key_b}}", "{{key_a}}"])
        race = ClaimRace()
        racing = build_scheduler(Settings(), tracer=race)
        racing.submit("{{key_a}}", "{{kind_a}}", 4)
        claim_concurrently(racing, "{{key_a}}", ["w1", "w2"])
        self.assertEqual(len(race.winners), 1)
'''

TEST_WORKERS = '''import unittest

{{imports}}


class WorkerTest(unittest.TestCase):
    def test_drain_runs_a_chain_in_dependency_order(self):
        scheduler = build_scheduler(Settings())
        scheduler.submit("{{key_a}}", "{{kind_a}}", 1)
        scheduler.submit("{{key_b}}", "{{kind_b}}", 9, depends_on=["{{key_a}}"])
        scheduler.submit("{{key_c}}", "{{kind_a}}", 5, depends_on=["{{key_b}}"])
        seen = []
        handlers = {"{{kind_a}}": lambda job: seen.append(job.key), "{{kind_b}}": lambda job: seen.append(job.key)}
        ran = drain([Worker("w1", scheduler, handlers), Worker("w2", scheduler, handlers)])
        self.assertEqual(ran, ["{{key_a}}", "{{key_b}}", "{{key_c}}"])
        self.assertEqual(seen, ran)
        self.assertEqual(scheduler.counts(), {"done": 3})

    def test_handler_error_fails_the_job(self):
        scheduler = build_scheduler(Settings())
        scheduler.submit("{{key_a}}", "{{kind_a}}", 1)

        def explode(job):
            raise ValueError("bad payload")

        Worker("w1", scheduler, {"{{kind_a}}": explode}).run_once()
        job = scheduler.job("{{key_a}}")
        self.assertEqual((job.state, job.error), ("failed", "bad payload"))

    def test_idle_worker_returns_none(self):
        self.assertIsNone(Worker("w1", build_scheduler(Settings()), {}).run_once())
'''

TEST_API = '''import unittest

{{imports}}


class ApiTest(unittest.TestCase):
    def setUp(self):
        self.scheduler = build_scheduler(Settings())

    def test_submit_returns_created(self):
        status, payload = handle_submit(self.scheduler, {"key": "{{key_a}}", "kind": "{{kind_a}}", "priority": 2})
        self.assertEqual(status, 201)
        self.assertEqual(payload["state"], "ready")

    def test_submit_requires_kind(self):
        status, payload = handle_submit(self.scheduler, {"key": "{{key_a}}"})
        self.assertEqual(status, 400)
        self.assertEqual(payload["error"]["details"]["field"], "kind")

    def test_get_unknown_job(self):
        status, _payload = handle_get(self.scheduler, "{{key_z}}")
        self.assertEqual(status, 404)

    def test_remote_worker_claims_and_finishes(self):
        handle_submit(self.scheduler, {"key": "{{key_a}}", "kind": "{{kind_a}}"})
        handle_submit(self.scheduler, {"key": "{{key_b}}", "kind": "{{kind_b}}", "depends_on": ["{{key_a}}"]})
        status, payload = handle_claim(self.scheduler, "{{key_a}}", {"worker": "remote-1"})
        self.assertEqual((status, payload["worker"]), (200, "remote-1"))
        self.assertEqual(handle_claim(self.scheduler, "{{key_a}}", {"worker": "remote-2"})[0], 409)
        status, payload = handle_finish(self.scheduler, "{{key_a}}", {"worker": "remote-1", "ok": True})
        self.assertEqual((status, payload["released"]), (200, ["{{key_b}}"]))

    def test_cancel_withdraws_downstream_jobs(self):
        handle_submit(self.scheduler, {"key": "{{key_a}}", "kind": "{{kind_a}}"})
        handle_submit(self.scheduler, {"key": "{{key_b}}", "kind": "{{kind_b}}", "depends_on": ["{{key_a}}"]})
        status, payload = handle_cancel(self.scheduler, "{{key_a}}")
        self.assertEqual((status, payload["cancelled"]), (200, ["{{key_a}}", "{{key_b}}"]))
        self.assertEqual(handle_cancel(self.scheduler, "{{key_a}}")[0], 409)

    def test_ready_lists_counts(self):
        handle_submit(self.scheduler, {"key": "{{key_a}}", "kind": "{{kind_a}}"})
        status, payload = handle_ready(self.scheduler, {"limit": "5"})
        self.assertEqual(status, 200)
        self.assertEqual(payload["ready"], ["{{key_a}}"])
        self.assertEqual(payload["counts"], {"ready": 1})
'''

HIDDEN_SCHEDULING = '''import json
import tempfile
import threading
import unittest
from pathlib import Path

{{imports}}
''' + RACE + '''

class OrderingTest(unittest.TestCase):
    def setUp(self):
        self.scheduler = build_scheduler(Settings())

    def test_higher_priority_runs_first(self):
        self.scheduler.submit("{{key_a}}", "{{kind_a}}", 1)
        self.scheduler.submit("{{key_b}}", "{{kind_a}}", 9)
        self.scheduler.submit("{{key_c}}", "{{kind_a}}", 5)
        self.assertEqual(self.scheduler.ready_jobs(), ["{{key_b}}", "{{key_c}}", "{{key_a}}"])
        order = [self.scheduler.next_for("w1").key for _ in range(3)]
        self.assertEqual(order, ["{{key_b}}", "{{key_c}}", "{{key_a}}"])
        self.assertIsNone(self.scheduler.next_for("w1"))

    def test_equal_priority_runs_in_the_order_jobs_became_ready(self):
        self.scheduler.submit("{{key_c}}", "{{kind_a}}", 4)
        self.scheduler.submit("{{key_b}}", "{{kind_a}}", 4)
        self.assertEqual(self.scheduler.next_for("w1").key, "{{key_c}}")
        self.scheduler.submit("{{key_a}}", "{{kind_a}}", 4)
        self.assertEqual(self.scheduler.ready_jobs(), ["{{key_b}}", "{{key_a}}"])
        self.assertEqual(self.scheduler.next_for("w2").key, "{{key_b}}")
        self.scheduler.submit("{{key_z}}", "{{kind_a}}", 4)
        self.assertEqual([self.scheduler.next_for("w3").key for _ in range(2)], ["{{key_a}}", "{{key_z}}"])

    def test_released_dependents_queue_behind_ready_peers(self):
        self.scheduler.submit("{{key_z}}", "{{kind_a}}", 6)
        self.scheduler.submit("{{key_a}}", "{{kind_b}}", 6, depends_on=["{{key_z}}"])
        self.scheduler.submit("{{key_c}}", "{{kind_a}}", 6)
        self.assertEqual(self.scheduler.next_for("w1").key, "{{key_z}}")
        self.scheduler.submit("{{key_b}}", "{{kind_a}}", 6)
        self.assertEqual(self.scheduler.complete("{{key_z}}", "w1"), ["{{key_a}}"])
        self.assertEqual(self.scheduler.ready_jobs(), ["{{key_c}}", "{{key_b}}", "{{key_a}}"])

    def test_workers_drain_by_priority_then_readiness(self):
        for index, key in enumerate(["{{key_a}}", "{{key_b}}", "{{key_c}}", "{{key_z}}"]):
            self.scheduler.submit(key, "{{kind_a}}", 2 if index % 2 else 7)
        ran = drain([Worker("w1", self.scheduler, {"{{kind_a}}": lambda job: None})])
        self.assertEqual(ran, ["{{key_a}}", "{{key_c}}", "{{key_b}}", "{{key_z}}"])


class ReadyQueueContractTest(unittest.TestCase):
    def test_popped_keys_leave_the_queue(self):
        queue = ReadyQueue()
        {{t_push}}Job("{{key_a}}", "{{kind_a}}", 2))
        {{t_push}}Job("{{key_b}}", "{{kind_a}}", 2))
        self.assertEqual({{t_pop}}, "{{key_a}}")
        self.assertFalse({{t_has_a}})
        self.assertEqual(({{t_len}}, {{t_peek}}5)), (1, ["{{key_b}}"]))
        self.assertEqual({{t_pop}}, "{{key_b}}")
        self.assertIsNone({{t_pop}})
        self.assertEqual({{t_len}}, 0)


class ClaimTest(unittest.TestCase):
    def test_concurrent_claims_have_exactly_one_winner(self):
        race = ClaimRace()
        scheduler = build_scheduler(Settings(), tracer=race)
        scheduler.submit("{{key_a}}", "{{kind_a}}", 3)
        results = claim_concurrently(scheduler, "{{key_a}}", ["w1", "w2"])
        winners = [worker for worker, job in results.items() if job is not None]
        self.assertEqual(len(winners), 1, results)
        job = scheduler.job("{{key_a}}")
        self.assertEqual((job.state, job.worker, job.attempts), (RUNNING, winners[0], 1))
        self.assertEqual(race.winners, [("{{key_a}}", winners[0])])

    def test_every_contended_job_runs_once(self):
        race = ClaimRace(parties=3)
        scheduler = build_scheduler(Settings(), tracer=race)
        keys = ["{{key_a}}", "{{key_b}}", "{{key_c}}"]
        for key in keys:
            scheduler.submit(key, "{{kind_a}}", 3)
        for key in keys:
            results = claim_concurrently(scheduler, key, ["w1", "w2", "w3"])
            self.assertEqual(sum(job is not None for job in results.values()), 1, key)
        self.assertEqual([job.attempts for job in map(scheduler.job, keys)], [1, 1, 1])

    def test_claimed_job_leaves_the_ready_list(self):
        scheduler = build_scheduler(Settings())
        scheduler.submit("{{key_a}}", "{{kind_a}}", 3)
        scheduler.submit("{{key_b}}", "{{kind_a}}", 2)
        claimed = scheduler.claim("{{key_a}}", "w1")
        self.assertEqual((claimed.state, claimed.worker), (RUNNING, "w1"))
        self.assertEqual(scheduler.ready_jobs(), ["{{key_b}}"])
        self.assertEqual(scheduler.next_for("w2").key, "{{key_b}}")
        self.assertIsNone(scheduler.next_for("w2"))

    def test_finished_job_cannot_be_claimed(self):
        scheduler = build_scheduler(Settings())
        scheduler.submit("{{key_a}}", "{{kind_a}}", 3)
        scheduler.claim("{{key_a}}", "w1")
        scheduler.complete("{{key_a}}", "w1")
        self.assertIsNone(scheduler.claim("{{key_a}}", "w2"))
        self.assertEqual(scheduler.job("{{key_a}}").worker, "w1")


class CompletionTest(unittest.TestCase):
    def setUp(self):
        self.scheduler = build_scheduler(Settings())
        self.events = []
        self.scheduler.subscribe(lambda event, job: self.events.append((event, job.key)))

    def test_repeated_completion_report_is_ignored(self):
        self.scheduler.submit("{{key_a}}", "{{kind_a}}", 3)
        self.scheduler.submit("{{key_b}}", "{{kind_a}}", 3, depends_on=["{{key_a}}"])
        self.scheduler.claim("{{key_a}}", "w1")
        self.assertEqual(self.scheduler.complete("{{key_a}}", "w1"), ["{{key_b}}"])
        self.assertEqual(self.scheduler.complete("{{key_a}}", "w1"), [])
        self.assertEqual(self.events, [("completed", "{{key_a}}")])

    def test_completion_by_another_worker_is_refused(self):
        self.scheduler.submit("{{key_a}}", "{{kind_a}}", 3)
        self.scheduler.claim("{{key_a}}", "w1")
        with self.assertRaises(JobConflict):
            self.scheduler.complete("{{key_a}}", "w2")
        self.assertEqual(self.scheduler.job("{{key_a}}").state, RUNNING)

    def test_listener_may_submit_follow_up_work(self):
        def follow_up(event, job):
            if event == "completed" and job.key == "{{key_a}}":
                self.scheduler.submit("{{key_c}}", "{{kind_b}}", 1, depends_on=["{{key_a}}"])

        self.scheduler.subscribe(follow_up)
        self.scheduler.submit("{{key_a}}", "{{kind_a}}", 3)
        self.scheduler.claim("{{key_a}}", "w1")
        worker = threading.Thread(target=self.scheduler.complete, args=("{{key_a}}", "w1"), daemon=True)
        worker.start()
        worker.join(3)
        self.assertFalse(worker.is_alive(), "complete() did not return")
        self.assertEqual(self.scheduler.job("{{key_c}}").state, READY)

    def test_failure_cancels_everything_downstream(self):
        self.scheduler.submit("{{key_a}}", "{{kind_a}}", 3)
        self.scheduler.submit("{{key_b}}", "{{kind_a}}", 3, depends_on=["{{key_a}}"])
        self.scheduler.submit("{{key_c}}", "{{kind_a}}", 3, depends_on=["{{key_b}}"])
        self.scheduler.submit("{{key_z}}", "{{kind_a}}", 3)
        self.scheduler.claim("{{key_a}}", "w1")
        self.assertEqual(self.scheduler.fail("{{key_a}}", "w1", "disk full"), ["{{key_b}}", "{{key_c}}"])
        self.assertEqual(self.scheduler.ready_jobs(), ["{{key_z}}"])
        self.assertEqual(self.events, [("failed", "{{key_a}}")])
        with self.assertRaises(JobConflict):
            self.scheduler.submit("{{key_y}}", "{{kind_a}}", 3, depends_on=["{{key_c}}"])

    def test_api_and_settings(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "settings.json"
            path.write_text(json.dumps({"default_priority": 2, "prefetch": 1}), encoding="utf-8")
            scheduler = build_scheduler(load_settings(path))
            handle_submit(scheduler, {"key": "{{key_a}}", "kind": "{{kind_a}}"})
            handle_submit(scheduler, {"key": "{{key_b}}", "kind": "{{kind_a}}", "priority": 3})
            status, payload = handle_ready(scheduler, {})
            self.assertEqual((status, payload["ready"]), (200, ["{{key_b}}"]))
            self.assertEqual(handle_get(scheduler, "{{key_a}}")[1]["priority"], 2)
            path.write_text(json.dumps({"prefetch_size": 1}), encoding="utf-8")
            with self.assertRaises({{ErrInvalid}}):
                load_settings(path)
'''
