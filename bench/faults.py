"""Evaluation under faults: ``python -m bench.faults [--evaluations N] [--fault-every S] [--sqlite]``.

Runs real submissions (gold, wrong and no-op patches on generated Python and JavaScript
instances, each patch's verdict established beforehand in the sandbox) through a real
django-q2 cluster while killing its processes with SIGKILL at random moments (workers
above all, sometimes the pusher, the monitor, the sentinel or the whole cluster, which a
supervisor then restarts) and crashing the Redis broker once, mid-run, losing every
task it held. The evaluation reaper runs on its schedule. Once every submission is in
and the faults stop, it waits until all are done or nothing has moved for the reaper's
bound, then checks every submission against the database:

- lost: not done, and no task for it anywhere (neither in the broker nor running);
- stuck: not done, though a task for it is queued or running;
- double_counted: a submission whose verdict was applied by more than one run, a score
  row, its creation event or its audit event present more than once, or an agent's
  leaderboard points differing from the sum of its solved challenges' points;
- wrong_verdicts: a final result that differs from the patch's known verdict;
- open_evaluations: runs left without a finish time.

Default: PostgreSQL (a dedicated database ``gauntlet_bench_faults`` on
``BENCH_FAULTS_POSTGRES``, default postgres://postgres@127.0.0.1:5432, created and
dropped here) and a private redis-server on a free loopback port (started, crashed and
restarted here; the shared one is never touched). ``--sqlite``: the embedded database and
the ORM broker, a smaller default, no broker restart. Last line of output: JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

from bench._django import ROOT, bench_environment, setup_django

DATABASE_NAME = "gauntlet_bench_faults"
CLUSTER_NAME = "bench-faults"
INSTANCES = (("rate-limiter", "python"), ("config-coercion", "python"), ("rate-limiter", "javascript"))
SPARE_TEMPLATES = ("paged-listing-cache", "booking-ledger", "invoice-rounding")
KIND_WEIGHTS = {"gold": 0.4, "wrong": 0.3, "noop": 0.3}
FAILURES = ("lost", "double_counted", "stuck", "wrong_verdicts", "open_evaluations")
# Which process a kill hits; crashes of the sentinel or of the whole cluster come at their
# own, slower rate, and the broker restart happens once.
KILL_WEIGHTS = {"worker": 0.8, "pusher": 0.1, "monitor": 0.1}
CRASH_WEIGHTS = {"sentinel": 0.5, "cluster": 0.5}


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m bench.faults", description=__doc__.split("\n\n")[0])
    parser.add_argument("--evaluations", type=int, help="submissions to evaluate (default 1000; 120 with --sqlite)")
    parser.add_argument("--kill-every", type=float, default=15.0,
                        help="mean seconds between SIGKILLs of a worker, the pusher or the monitor "
                             "(exponentially distributed); 0 for none")
    parser.add_argument("--crash-every", type=float, default=150.0,
                        help="mean seconds between crashes of the sentinel or the whole cluster; 0 for none")
    parser.add_argument("--workers", type=int, default=3, help="q2 workers in the cluster")
    parser.add_argument("--agents", type=int, default=24, help="competing agents")
    parser.add_argument("--concurrency", type=int, default=2, help="evaluations in flight per agent (bout quota)")
    parser.add_argument("--task-timeout", type=int, default=60, help="q2 task timeout, seconds")
    parser.add_argument("--stuck-seconds", type=int, default=120, help="the reaper's stuck bound, seconds")
    parser.add_argument("--broker-restart-at", type=float, default=0.4,
                        help="fraction of submissions in when the broker is crashed and restarted (Redis only)")
    parser.add_argument("--seed", type=int, default=None)
    parser.add_argument("--sqlite", action="store_true", help="SQLite and the ORM broker (developers' quick run)")
    args = parser.parse_args()
    if args.evaluations is None:
        args.evaluations = 120 if args.sqlite else 1000
    if args.seed is None:
        args.seed = random.SystemRandom().randrange(2**31)
    return args


# --- processes ------------------------------------------------------------------------

def _proc_children(pid: int) -> list[int]:
    children = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as handle:
                stat = handle.read()
        except OSError:
            continue
        if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
            children.append(int(entry))
    return children


def _proc_title(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as handle:
            return handle.read().replace(b"\0", b" ").decode(errors="replace").strip()
    except OSError:
        return ""


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class RedisServer:
    """A private redis-server like the production one: no persistence, loopback only."""

    def __init__(self, directory: Path):
        self.port = _free_port()
        self.directory = directory
        self.process: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server") or "/usr/bin/redis-server"
        self.process = subprocess.Popen(
            [binary, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
             "--dir", str(self.directory), "--logfile", str(self.directory / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        import redis

        deadline = time.monotonic() + 20
        while True:
            try:
                redis.Redis(port=self.port, socket_timeout=1).ping()
                return
            except redis.ConnectionError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def crash(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process.wait(timeout=20)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=20)


class Cluster:
    """``manage.py qcluster`` in its own process group, supervised as systemd would: when
    the main process exits, whatever is left of the group is killed and it starts again."""

    def __init__(self, env: dict[str, str], log_path: Path):
        self.env = env
        self.log_path = log_path
        self.process: subprocess.Popen | None = None
        self.restarts = 0

    def start(self) -> None:
        with open(self.log_path, "ab") as log:
            self.process = subprocess.Popen([sys.executable, str(ROOT / "manage.py"), "qcluster"], cwd=ROOT,
                                            env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                            start_new_session=True)

    def kill_group(self) -> None:
        if self.process is None:
            return
        try:
            os.killpg(self.process.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        self.process.wait(timeout=30)

    def supervise(self) -> bool:
        """Restart a cluster whose main process has exited; True if it did."""
        if self.process is not None and self.process.poll() is not None:
            self.kill_group()
            self.start()
            self.restarts += 1
            return True
        return False

    def processes(self) -> dict[str, list[int]]:
        """The cluster's processes by role, from the process tree and django-q2's titles."""
        roles: dict[str, list[int]] = {"sentinel": [], "worker": [], "pusher": [], "monitor": []}
        if self.process is None or self.process.poll() is not None:
            return roles
        for sentinel in _proc_children(self.process.pid):
            roles["sentinel"].append(sentinel)
            for child in _proc_children(sentinel):
                title = _proc_title(child)
                if title.endswith(" pusher"):
                    roles["pusher"].append(child)
                elif title.endswith(" monitor"):
                    roles["monitor"].append(child)
                elif " idle" in title or " processing " in title:
                    roles["worker"].append(child)
        return roles

    def stop(self) -> None:
        if self.process is None:
            return
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=60)
            except subprocess.TimeoutExpired:
                pass
        self.kill_group()


@dataclass
class FaultLog:
    kills: Counter = field(default_factory=Counter)
    busy_worker_kills: int = 0
    broker_restarts: int = 0
    tasks_dropped_by_broker: int = 0
    last_fault: float = 0.0


class Faults(threading.Thread):
    """Injects faults at exponentially distributed intervals until told to stop; keeps
    the cluster supervised throughout."""

    def __init__(self, *, cluster: Cluster, redis: RedisServer | None, rng: random.Random, kill_every: float,
                 crash_every: float, broker_restart_due, log: FaultLog):
        super().__init__(daemon=True)
        self.cluster, self.redis, self.rng = cluster, redis, rng
        self.kill_every, self.crash_every = kill_every, crash_every
        self.broker_restart_due = broker_restart_due
        self.log = log
        self.stop_faults = threading.Event()
        self.stop_supervising = threading.Event()

    def run(self) -> None:
        next_kill, next_crash = time.monotonic() + self._after(self.kill_every), time.monotonic() + self._after(
            self.crash_every)
        while not self.stop_supervising.is_set():
            self.cluster.supervise()
            now = time.monotonic()
            if not self.stop_faults.is_set():
                if self.redis is not None and not self.log.broker_restarts and self.broker_restart_due():
                    self._restart_broker()
                if now >= next_kill:
                    self._kill(self.rng.choices(list(KILL_WEIGHTS), weights=list(KILL_WEIGHTS.values()))[0])
                    next_kill = now + self._after(self.kill_every)
                if now >= next_crash:
                    self._crash(self.rng.choices(list(CRASH_WEIGHTS), weights=list(CRASH_WEIGHTS.values()))[0])
                    next_crash = now + self._after(self.crash_every)
            time.sleep(0.2)

    def _after(self, mean: float) -> float:
        return self.rng.expovariate(1 / mean) if mean > 0 else float("inf")

    def _kill(self, role: str) -> None:
        candidates = self.cluster.processes()[role]
        if not candidates:
            return
        pid = self.rng.choice(candidates)
        busy = role == "worker" and " processing " in _proc_title(pid)
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            return
        self.log.busy_worker_kills += busy
        self.log.kills[role] += 1
        self.log.last_fault = time.monotonic()

    def _crash(self, kind: str) -> None:
        if kind == "cluster":
            self.cluster.kill_group()  # the whole machine or container dies at once
            self.cluster.start()
            self.cluster.restarts += 1
        else:
            self._kill_pid(self.cluster.processes()["sentinel"])  # the supervisor restarts what is left
        self.log.kills[kind] += 1
        self.log.last_fault = time.monotonic()

    def _kill_pid(self, pids: list[int]) -> None:
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def _restart_broker(self) -> None:
        import redis

        try:
            self.log.tasks_dropped_by_broker = redis.Redis(port=self.redis.port).llen(f"django_q:{CLUSTER_NAME}:q")
        except redis.RedisError:
            pass
        self.redis.crash()
        time.sleep(2.0)  # an outage, not a blink: clients see refused connections meanwhile
        self.redis.start()
        self.log.broker_restarts += 1
        self.log.last_fault = time.monotonic()


# --- the platform side ----------------------------------------------------------------

def _postgres_database(create: bool) -> str:
    import psycopg

    base = os.environ.get("BENCH_FAULTS_POSTGRES", "postgres://postgres@127.0.0.1:5432").rstrip("/")
    with psycopg.connect(f"{base}/postgres", autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{DATABASE_NAME}" WITH (FORCE)')
        if create:
            admin.execute(f'CREATE DATABASE "{DATABASE_NAME}"')
    return f"{base}/{DATABASE_NAME}"


def _instances():
    from challenges.models import ChallengeInstance, ChallengeTemplate
    from challenges.services.generation import instance_generate, template_sync

    template_sync(activate=True)
    instances = []
    for slug, language in INSTANCES:
        for candidate in (slug, *SPARE_TEMPLATES):
            template = ChallengeTemplate.objects.filter(slug=candidate).first()
            if template is None or language not in template.languages:
                continue
            result = instance_generate(template=template, language=language)
            # A draw too close to an earlier one waits for review instead of releasing.
            if result.instance is not None and result.instance.state == ChallengeInstance.State.RELEASED:
                instances.append(result.instance)
                break
    if not instances:
        raise SystemExit("no instance could be generated")
    return instances


def _patches(instances) -> dict[int, dict[str, tuple[str, str]]]:
    """Per instance: kind -> (patch, verdict), each verdict established by the sandbox now."""
    from challenges.services.oracle import oracle_run
    from challenges.services.workspaces import instance_secrets
    from simulation.policies import mutate_fix
    from simulation.services import NOOP_PATCH

    expected_by_kind = {"gold": "solved", "wrong": "not_solved", "noop": "not_solved"}
    table = {}
    for instance in instances:
        gold = instance_secrets(instance)["gold_patch"]
        options = {"gold": gold, "wrong": mutate_fix(gold), "noop": NOOP_PATCH}
        table[instance.pk] = {}
        for kind, patch in options.items():
            if patch is None:
                continue
            verdict = oracle_run(instance=instance, patch=patch).result
            if verdict == expected_by_kind[kind]:
                table[instance.pk][kind] = (patch, verdict)
        if "gold" not in table[instance.pk]:
            raise SystemExit(f"the gold patch of instance {instance.pk} does not solve it in the sandbox")
    return table


def _bout(instances, args):
    from django.utils import timezone

    from competition.services.bouts import bout_create

    now = timezone.now()
    bout = bout_create(name="Faults", instances=instances, starts_at=now - timedelta(minutes=1),
                       ends_at=now + timedelta(hours=12), by=None)
    bout.submissions_per_attempt = 30_000
    bout.submissions_per_day = 1_000_000
    bout.attempts_per_challenge = 10
    bout.attempt_minutes = 12 * 60
    bout.concurrent_evaluations = args.concurrency
    bout.save()
    return bout


def _agents(count: int):
    from django.contrib.auth.models import User

    from competition.services import agent_create

    return [agent_create(owner=User.objects.create_user(f"faults-{i}"), name=f"faults-{i}").agent
            for i in range(count)]


def _feed(*, bout, agents, patches, args, rng: random.Random, created: list, progress,
          give_up_after: float) -> dict[int, str]:
    """Submit as agents do: each keeps at most its quota of evaluations in flight. Stops
    early if no agent could submit for ``give_up_after`` seconds (every slot stuck)."""
    from django.db.models import Count

    from competition.errors import QuotaExceeded
    from competition.models import Submission
    from competition.services.attempts import attempt_start
    from competition.services.submissions import SubmissionMetadata, submission_create

    challenges = list(bout.challenges.select_related("instance"))
    attempts = {}
    expected: dict[int, str] = {}
    in_flight_states = [Submission.State.QUEUED, Submission.State.RUNNING]
    last_submitted = time.monotonic()
    while len(expected) < args.evaluations and time.monotonic() - last_submitted < give_up_after:
        busy = dict(Submission.objects.filter(state__in=in_flight_states).values_list("agent")
                    .annotate(n=Count("pk")).values_list("agent", "n"))
        for agent in agents:
            if len(expected) >= args.evaluations or busy.get(agent.pk, 0) >= args.concurrency:
                continue
            challenge = rng.choice(challenges)
            options = patches[challenge.instance_id]
            kinds = [k for k in KIND_WEIGHTS if k in options]
            kind = rng.choices(kinds, weights=[KIND_WEIGHTS[k] for k in kinds])[0]
            patch, verdict = options[kind]
            key = (agent.pk, challenge.pk)
            if key not in attempts:
                attempts[key] = attempt_start(agent=agent, challenge_handle=challenge.handle)[0].handle
            try:
                submission, _ = submission_create(agent=agent, attempt_handle=attempts[key], patch=patch,
                                                  idempotency_key=f"faults-{len(expected)}",
                                                  metadata=SubmissionMetadata())
            except QuotaExceeded:
                continue
            expected[submission.pk] = verdict
            created.append(submission.pk)
            last_submitted = time.monotonic()
        progress()
        time.sleep(0.25)
    return expected


def _pending_tasks(redis_url: str | None) -> set[int]:
    """Submission ids that a queued broker message would still evaluate."""
    from django_q.models import OrmQ
    from django_q.signing import SignedPackage

    payloads = []
    if redis_url:
        import redis

        payloads = redis.Redis.from_url(redis_url).lrange(f"django_q:{CLUSTER_NAME}:q", 0, -1)
    else:
        payloads = list(OrmQ.objects.values_list("payload", flat=True))
    ids = set()
    for payload in payloads:
        task = SignedPackage.loads(payload)
        if task.get("func") == "competition.tasks.evaluate_submission":
            ids.add(int(task["args"][0]))
    return ids


def _check(*, bout, expected: dict[int, str], redis_url: str | None, stuck_after: float) -> dict:
    from django.db.models import Count
    from django.utils import timezone

    from competition.models import Evaluation, Score, ScoreEvent, Submission
    from competition.scoring import ChallengeFacts, get_format
    from competition.selectors.leaderboards import bout_leaderboard
    from core.models import AuditEvent

    submissions = {s.pk: s for s in Submission.objects.filter(pk__in=expected).select_related("attempt")}
    not_done = [s for s in submissions.values() if s.state != Submission.State.DONE]
    queued = _pending_tasks(redis_url)
    fresh = timezone.now() - timedelta(seconds=stuck_after)
    live = {s.pk for s in not_done if s.pk in queued
            or (s.state == Submission.State.RUNNING and s.evaluation_started_at and s.evaluation_started_at > fresh)}
    done = [s for s in submissions.values() if s.state == Submission.State.DONE]
    wrong = [s for s in done if s.result != expected[s.pk]]

    not_counted = ("superseded", "given up by the reaper", "run failed")
    runs = Evaluation.objects.filter(submission_id__in=expected)
    counted = Counter(sid for sid, reason in runs.filter(finished_at__isnull=False).values_list("submission_id", "reason")
                      if not reason.startswith(not_counted))
    abandoned = {s.pk for s in done if s.result_reason.startswith(("evaluation did not finish", "re-evaluation did"))}
    applied_twice = [sid for sid, n in counted.items() if n > 1]
    verdict_without_run = [s.pk for s in done if counted[s.pk] == 0 and s.pk not in abandoned]

    scores = Score.objects.filter(challenge__bout=bout)
    score_ids = list(scores.values_list("pk", flat=True))
    duplicate_scores = (scores.values("entry", "challenge").annotate(n=Count("pk")).filter(n__gt=1).count()
                        + scores.values("submission").annotate(n=Count("pk")).filter(n__gt=1).count())
    created_events = Counter(ScoreEvent.objects.filter(score_id__in=score_ids, from_state="")
                             .values_list("score_id", flat=True))
    audit_created = Counter(int(tid) for tid, before in AuditEvent.objects.filter(
        verb="score.changed", target_type="competition.score", target_id__in=[str(i) for i in score_ids])
        .values_list("target_id", "before") if (before or {}).get("state") in ("", None))
    duplicate_events = sum(1 for n in created_events.values() if n > 1) + sum(1 for n in audit_created.values() if n > 1)
    missing_events = sum(1 for i in score_ids if created_events[i] == 0)

    # Leaderboard points: each (agent, challenge) solved by some submission counts once.
    fmt = get_format(bout.scoring_format)
    solved_pairs = {(s.agent_id, s.attempt.challenge_id) for s in done if s.result == "solved"}
    tiers = dict(bout.challenges.values_list("pk", "instance__tier"))
    want_points = Counter()
    for agent_id, challenge_id in solved_pairs:
        want_points[agent_id] += fmt.points(ChallengeFacts(tier=tiers[challenge_id]), bout.format_config)
    board = {row.agent_id: row.points for row in bout_leaderboard(bout=bout)}
    points_mismatch = [a for a in set(want_points) | set(board) if want_points.get(a, 0) != board.get(a, 0)]
    missing_scores = len(solved_pairs) - scores.count()

    requeued = AuditEvent.objects.filter(verb="evaluation.requeued", target_type="competition.submission",
                                         target_id__in=[str(i) for i in expected])
    return {
        "lost": len(not_done) - len(live),
        "stuck": len(live),
        "double_counted": len(applied_twice) + duplicate_scores + duplicate_events + len(points_mismatch),
        "wrong_verdicts": len(wrong),
        "open_evaluations": runs.filter(finished_at__isnull=True).count(),
        "abandoned": len(abandoned),
        "verdicts_without_a_run": len(verdict_without_run),
        "missing_scores": missing_scores + missing_events,
        "recovered_by_reaper": requeued.values("target_id").distinct().count(),
        "reaper_requeues": requeued.count(),
        "runs": runs.count(),
        "superseded_runs": runs.filter(reason__startswith="superseded").count(),
        "runs_given_up": runs.filter(reason__startswith=("given up by the reaper")).count(),
        "results": dict(Counter(s.result for s in submissions.values())),
        "expected": dict(Counter(expected.values())),
        "scores": len(score_ids),
        "details": {"applied_twice": applied_twice[:10], "wrong": [(s.pk, s.result, expected[s.pk], s.result_reason)
                                                                   for s in wrong[:10]],
                    "not_done": [(s.pk, s.state, s.evaluation_tries) for s in not_done[:10]],
                    "points_mismatch": points_mismatch[:10],
                    "open_runs": list(runs.filter(finished_at__isnull=True)
                                      .values_list("submission_id", "started_at", "submission__state")[:10])},
    }


def main() -> None:
    args = _arguments()
    rng = random.Random(args.seed)
    env = bench_environment("faults")
    var = Path(env["GAUNTLET_VAR_DIR"])
    redis_server = None
    if args.sqlite:
        env.pop("DATABASE_URL", None)
    else:
        env["DATABASE_URL"] = _postgres_database(create=True)
        redis_server = RedisServer(var)
        redis_server.start()
        env["REDIS_URL"] = redis_server.url
    env.update({"GAUNTLET_Q_NAME": CLUSTER_NAME, "GAUNTLET_Q_WORKERS": str(args.workers),
                "GAUNTLET_Q_TIMEOUT": str(args.task_timeout), "GAUNTLET_Q_RETRY": str(args.task_timeout + 30)})
    cluster = None
    faults = None
    keep = True  # the run's files (cluster log, SQLite database) stay for a look unless all went well
    try:
        setup_django(env)
        from django.db import connection

        from competition.models import Submission
        from competition.services.evaluation import evaluation_stuck_after
        from core.services import config_set

        config_set(key="competition.evaluation_stuck_seconds", value=args.stuck_seconds, by=None,
                   reason="fault benchmark: a short bound so recovery shows within the run")
        instances = _instances()
        patches = _patches(instances)
        bout = _bout(instances, args)
        agents = _agents(args.agents)
        stuck_after = evaluation_stuck_after().total_seconds()
        # A task lost at the last fault waits at most the stuck bound, then the reaper's
        # period (a one-minute schedule the cluster checks every 30 s), then one run.
        bound = stuck_after + 60 + 30 + args.task_timeout
        connection.close()

        cluster = Cluster({**os.environ, **env}, var / "qcluster.log")
        cluster.start()
        created: list[int] = []
        log = FaultLog()
        faults = Faults(cluster=cluster, redis=redis_server, rng=random.Random(rng.random()),
                        kill_every=args.kill_every, crash_every=args.crash_every,
                        broker_restart_due=lambda: len(created) >= args.broker_restart_at * args.evaluations, log=log)
        started = time.monotonic()
        faults.start()
        last_report = [started]

        def progress():
            if time.monotonic() - last_report[0] >= 30:
                last_report[0] = time.monotonic()
                done = Submission.objects.filter(pk__in=created, state=Submission.State.DONE).count()
                print(f"{time.monotonic() - started:7.0f} s  submitted {len(created)}  done {done}  "
                      f"kills {sum(log.kills.values())}  cluster restarts {cluster.restarts}", flush=True)

        expected = _feed(bout=bout, agents=agents, patches=patches, args=args, rng=rng, created=created,
                         progress=progress, give_up_after=bound)
        faults.stop_faults.set()
        fed = time.monotonic()

        # Wait for the end: everything done, or nothing moving for the reaper's bound.
        done_count, moved = -1, time.monotonic()
        while True:
            count = Submission.objects.filter(pk__in=expected, state=Submission.State.DONE).count()
            if count != done_count:
                done_count, moved = count, time.monotonic()
            if count == len(expected) or time.monotonic() - max(moved, log.last_fault, fed) > bound:
                break
            progress()
            time.sleep(2)
        finished = time.monotonic()
        last_done = Submission.objects.filter(pk__in=expected).order_by("-evaluation_finished_at") \
            .values_list("evaluation_finished_at", flat=True).first()
        first_in = Submission.objects.filter(pk__in=expected).order_by("received_at") \
            .values_list("received_at", flat=True).first()
        faults.stop_supervising.set()
        faults.join(timeout=30)
        cluster.stop()
        report = _check(bout=bout, expected=expected, redis_url=redis_server.url if redis_server else None,
                        stuck_after=stuck_after)
        busy_seconds = (last_done - first_in).total_seconds() if last_done and first_in else finished - started
        details = report.pop("details")
        print("details:", json.dumps(details, default=str), flush=True)
        summary = {
            "evaluations": len(expected),
            "fed_all": len(expected) == args.evaluations,
            **{k: report.pop(k) for k in FAILURES},
            "kills": sum(log.kills.values()),
            "kills_by_process": dict(log.kills),
            "busy_worker_kills": log.busy_worker_kills,
            "cluster_restarts": cluster.restarts,
            "broker_restarts": log.broker_restarts,
            "tasks_dropped_by_broker_restart": log.tasks_dropped_by_broker,
            **report,
            "reaper_bound_s": round(bound),
            "wall_s": round(finished - started, 1),
            "drain_after_last_submission_s": round(finished - fed, 1),
            "evaluations_per_minute": round(len(expected) / busy_seconds * 60, 1),
            "database": connection.vendor,
            "broker": "redis" if redis_server else "orm",
            "workers": args.workers, "agents": args.agents, "kill_every_s": args.kill_every,
            "crash_every_s": args.crash_every, "seed": args.seed,
            "machine": {"cpus": os.cpu_count(), "load_average": [round(x, 2) for x in os.getloadavg()]},
        }
        keep = any(summary[k] for k in FAILURES)
        if keep:
            print(f"files kept in {var}", flush=True)
        print(json.dumps(summary))
    finally:
        if faults is not None:
            faults.stop_supervising.set()
            faults.join(timeout=30)
        if cluster is not None:
            cluster.stop()
        if redis_server is not None:
            redis_server.stop()
        if not args.sqlite:
            from django.db import connections

            connections.close_all()
            if keep:
                print(f"database {DATABASE_NAME} kept; the next run replaces it", flush=True)
            else:
                _postgres_database(create=False)
        if not keep:
            shutil.rmtree(var, ignore_errors=True)


if __name__ == "__main__":
    main()
