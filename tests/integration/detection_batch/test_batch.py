"""The post-bout batch on real rows: a real sealed instance, real patches, real index."""

from __future__ import annotations

import difflib
import inspect
import json
import json.decoder
import sysconfig
from datetime import timedelta
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import timezone

from competition.models import Attempt, Bout, BoutChallenge, Score, Submission
from competition.services.bouts import bout_transition
from core.models import AuditEvent
from core.services import config_set
from detection.models import BatchChallengeResult, BatchRun, CompositeScore, ContaminationCase, SubmissionSignal
from detection.services.batch import batch_run_execute, batch_run_now
from detection.services.provenance import provenance_import
from tests import broker, factories
from tests.instance_factory import LEDGER_BUGGY, make_instance

pytestmark = pytest.mark.django_db

HEADER = "def overlaps(start_a, end_a, start_b, end_b):\n"
DOC = '    """Half-open windows [start, end) overlap when each starts before the other ends."""\n'
FIXES = {
    "gold": "    return start_a < end_b and start_b < end_a\n",
    "minmax": "    return max(start_a, start_b) < min(end_a, end_b)\n",
    "negated": "    return not (end_b <= start_a or end_a <= start_b)\n",
    "early": "    if start_a >= end_b:\n        return False\n    if start_b >= end_a:\n        return False\n"
             "    return True\n",
    "ring": "    first = start_a < end_b\n    second = start_b < end_a\n    return bool(first and second)\n",
}


def _patch(body: str, extra: str = "") -> str:
    after = LEDGER_BUGGY.replace("    return start_a <= end_b and start_b < end_a\n", body) + extra
    lines = difflib.unified_diff(LEDGER_BUGGY.splitlines(keepends=True), after.splitlines(keepends=True),
                                 "a/rooms/ledger.py", "b/rooms/ledger.py")
    return "diff --git a/rooms/ledger.py b/rooms/ledger.py\n" + "".join(lines)


def _solve(bout: Bout, challenge: BoutChallenge, patch: str, seconds: float, *, entry=None) -> Submission:
    entry = entry or factories.entry(bout=bout, agent=factories.agent())
    attempt = factories.attempt(entry=entry, challenge=challenge, state=Attempt.State.SOLVED)
    made = factories.submission(attempt=attempt, seconds=seconds, result=Submission.Result.SOLVED)
    Submission.objects.filter(pk=made.pk).update(patch=patch)
    made.refresh_from_db()
    return made


def _signal(submission: Submission, kind: str) -> SubmissionSignal:
    return SubmissionSignal.objects.get(submission=submission, kind=kind, source="batch")


@pytest.fixture
def stdlib_index():
    """Part of the Python standard library indexed as public code nobody here wrote."""
    json_dir = Path(sysconfig.get_paths()["stdlib"]) / "json"
    result = provenance_import(path=json_dir, label="python-stdlib-json", by=None)
    assert result.added >= 4 and result.fingerprints > 100
    return result


def test_convergence_copy_pair_and_pasted_public_code_on_real_instances(stdlib_index):
    bout = factories.bout(tiers=())
    challenges = [BoutChallenge.objects.create(bout=bout, instance=make_instance(tier=2, slug=f"rooms-{n}"),
                                               handle=f"cfixture0{n}", position=n) for n in (1, 2)]
    forms = ["gold", "minmax", "negated", "early"]
    honest_entries = [factories.entry(bout=bout, agent=factories.agent()) for _ in forms]
    ring_entries = [factories.entry(bout=bout, agent=factories.agent()) for _ in range(2)]
    paster_entry = factories.entry(bout=bout, agent=factories.agent())
    pasted = "\n\n" + inspect.getsource(json.decoder.JSONArray)
    honest, ring, pasters = [], [], []
    for shift, challenge in enumerate(challenges):
        # Honest solvers write their own fix, a different one on each challenge.
        honest += [_solve(bout, challenge, _patch(FIXES[forms[(i + shift) % 4]]), 600 + 700 * i, entry=entry)
                   for i, entry in enumerate(honest_entries)]
        ring += [_solve(bout, challenge, _patch(FIXES["ring"]), 900 + 1300 * i, entry=entry)
                 for i, entry in enumerate(ring_entries)]
        pasters.append(_solve(bout, challenge, _patch(FIXES["gold"], pasted), 4000, entry=paster_entry))

    run = batch_run_now(bout=bout)

    assert (run.state, run.done, run.total) == (BatchRun.State.DONE, 2, 2)
    result = BatchChallengeResult.objects.get(run=run, challenge=challenges[0])
    assert result.solving == 7
    assert len(result.pairs) == 7 * 6 // 2  # every pair kept as evidence
    closest = result.closest[0]
    assert {closest["a"], closest["b"]} == {ring[0].handle, ring[1].handle}
    assert closest["distance"] == 0.0 and "normal_form_diff" in closest
    # The ring agrees on both challenges where 1 pair in 21 does: a copy pair, flagged.
    (pair,) = run.summary["copy_pairs"]
    assert sorted(pair["agents"]) == sorted(e.agent_id for e in ring_entries)
    assert pair["p_value"] == pytest.approx((1 / 21) ** 2, rel=1e-3)
    for member in ring:
        signal = _signal(member, "convergence")
        assert signal.evidence["copy_pair"]["copy"] and "copy pair" in signal.reason
        composite = CompositeScore.objects.get(submission=member)
        assert composite.action == CompositeScore.Action.FLAG and "post-bout" in composite.reason
    # Honest, differently written fixes are not.
    for solve in honest:
        assert "copy_pair" not in _signal(solve, "convergence").evidence
        assert not CompositeScore.objects.filter(submission=solve, action=CompositeScore.Action.FLAG).exists()
    # The pasted standard-library function is found with its file and a line range inside it.
    paster = pasters[0]
    found = _signal(paster, "provenance")
    assert found.evidence["matches"][0]["source"] == "python-stdlib-json:decoder.py"
    assert found.evidence["matches"][0]["kind"] == "public"
    lines = found.evidence["matches"][0]["source_lines"]
    start = inspect.getsourcelines(json.decoder.JSONArray)[1]
    end = start + len(inspect.getsourcelines(json.decoder.JSONArray)[0]) - 1
    assert start <= lines[0] <= lines[1] <= end
    assert found.value >= 0.5 and "decoder.py" in found.reason
    assert CompositeScore.objects.get(submission=paster).action == CompositeScore.Action.FLAG
    assert _signal(honest[0], "provenance").value == 0.0
    # Nothing else is unusual here: 7 of 7 is within tier 2's band + 20 pp, arrivals are spread.
    assert result.anomaly["level"] == "none"
    assert result.temporal["flagged"] is False


def test_a_converged_challenge_is_investigated_without_accusing_its_solvers():
    bout = factories.bout(tiers=())
    challenge = BoutChallenge.objects.create(bout=bout, instance=make_instance(tier=3), handle="cconv00001",
                                             position=1)
    solves = [_solve(bout, challenge, _patch(FIXES["gold"]), 500 + 400 * i) for i in range(5)]
    for _ in range(3):  # 5 of 8 solved: within tier 3's expected rate
        factories.attempt(entry=factories.entry(bout=bout, agent=factories.agent()), challenge=challenge)
    run = batch_run_now(bout=bout)
    result = run.results.get()
    assert result.convergence["investigate"] and result.convergence["band"] == "strong"
    assert AuditEvent.objects.filter(verb="detection.convergence_investigation",
                                     target_id=str(challenge.pk)).count() == 1
    for solve in solves:
        assert _signal(solve, "convergence").value == pytest.approx(0.9)
        assert CompositeScore.objects.get(submission=solve).action == CompositeScore.Action.LOG
    assert run.summary["copy_pairs"] == []


def _timed_solve(entry, challenge, *, start_minute: float, arrive_second: float) -> Submission:
    """A solve whose attempt started ``start_minute`` into the bout and arrived ``arrive_second`` into it."""
    started = entry.bout.starts_at + timedelta(minutes=start_minute)
    attempt = factories.attempt(entry=entry, challenge=challenge, started_at=started, state=Attempt.State.SOLVED)
    seconds = arrive_second - start_minute * 60
    return factories.score(submission=factories.submission(attempt=attempt, seconds=seconds,
                                                           result=Submission.Result.SOLVED)).submission


@pytest.mark.parametrize("null", ["starts", "bout"])
def test_solve_rate_anomaly_and_temporal_cluster_from_timings(null):
    config_set(key="detection.temporal.null", value=null, by=None, reason="both tests of the batch")
    bout = factories.bout(tiers=(3, 1, 1, 1), hours=8)
    leaked, *others = list(bout.challenges.order_by("position"))
    entries = [factories.entry(bout=bout, agent=factories.agent()) for _ in range(10)]
    burst = []
    for index, entry in enumerate(entries):
        # Every agent solves the tier-3 challenge; they started it minutes apart yet all
        # finished within 20 s of each other…
        burst.append(_timed_solve(entry, leaked, start_minute=5 * index, arrive_second=3600 + 2 * index))
        # …while on the others each solver takes its own time.
        for number, other in enumerate(others):
            _timed_solve(entry, other, start_minute=7 * index + number,
                         arrive_second=(7 * index + number) * 60 + 300 + 97 * ((index * 7 + number * 3) % 11))

    run = batch_run_now(bout=bout)

    result = run.results.get(challenge=leaked)
    assert result.anomaly["level"] == "quarantine" and result.anomaly["excess_pp"] == 40.0
    assert result.anomaly["expected"]["source"] == "spec_band"
    assert result.temporal["flagged"] and result.temporal["p_value"] < 0.01
    inside = 0
    for submission in burst:
        assert _signal(submission, "solve_rate_anomaly").value == 1.0
        in_window = _signal(submission, "temporal_cluster").evidence["inside"]
        inside += in_window
        # The anomaly is about the challenge: a solver's own composite follows its own findings only.
        own = CompositeScore.objects.filter(submission=submission).values_list("action", flat=True).first() or "none"
        assert own != CompositeScore.Action.QUARANTINE
        if not in_window:
            assert own in (CompositeScore.Action.NONE, CompositeScore.Action.LOG)
    assert inside >= 5
    # …and it quarantines the instance through one L3 case that links every solver's anomaly signal.
    (case,) = ContaminationCase.objects.filter(instance=leaked.instance)
    assert case.level == ContaminationCase.Level.QUARANTINE
    assert set(case.signals.filter(kind="solve_rate_anomaly").values_list("submission_id", flat=True)) == {
        submission.pk for submission in burst}
    # Tier-1 challenges solved by everyone are within their band; their arrivals are not clustered.
    for other in others:
        other_result = run.results.get(challenge=other)
        assert other_result.anomaly["level"] == "none"
        assert other_result.temporal["flagged"] is False, other_result.temporal["reason"]
    assert run.summary["anomalies"] == {"investigate": 0, "quarantine": 1}
    assert run.summary["clustered"] == 1
    # The quarantine reached the response: the challenge's scores are under review.
    assert not Score.objects.filter(challenge=leaked).exclude(state=Score.State.UNDER_REVIEW).exists()


def test_calibrated_rates_replace_the_band_once_enough_history_exists():
    config_set(key="detection.anomaly.min_calibration_attempts", value=6, by=None, reason="small history in a test")
    past = factories.bout(tiers=(3,), state=Bout.State.CLOSED)
    Bout.objects.filter(pk=past.pk).update(closed_at=timezone.now() - timedelta(days=3))
    past_challenge = past.challenges.get()
    for index in range(6):  # 2 of 6 solved in the past: a measured 33 %
        entry = factories.entry(bout=past, agent=factories.agent())
        if index < 2:
            factories.solve(entry=entry, challenge=past_challenge, seconds=100)
        else:
            factories.attempt(entry=entry, challenge=past_challenge)
    bout = factories.bout(tiers=(3,))
    challenge = bout.challenges.get()
    for index in range(6):  # 5 of 6 now: +50 pp over the measured rate, +23 over the band's edge
        entry = factories.entry(bout=bout, agent=factories.agent())
        if index < 5:
            factories.solve(entry=entry, challenge=challenge, seconds=100 + 900 * index)
        else:
            factories.attempt(entry=entry, challenge=challenge)

    anomaly = batch_run_now(bout=bout).results.get().anomaly

    assert anomaly["expected"]["source"] == "calibrated"
    assert anomaly["expected"]["calibration"] == {"solved": 2, "attempted": 6, "rate": 0.3333,
                                                  "measured_on": "past bouts"}
    assert anomaly["level"] == "quarantine" and anomaly["excess_pp"] == pytest.approx(50.0)
    assert "measured on past bouts" in anomaly["reason"]


def test_a_calibration_measurement_is_preferred_to_past_bouts():
    import uuid

    from challenges.calibration import SCHEMA
    from challenges.services.calibration import calibration_import

    config_set(key="detection.anomaly.min_calibration_attempts", value=6, by=None, reason="small history in a test")
    past = factories.bout(tiers=(3,), state=Bout.State.CLOSED)
    Bout.objects.filter(pk=past.pk).update(closed_at=timezone.now() - timedelta(days=3))
    for _ in range(6):  # every past bout try solved: a measured 100 % the calibration must win over
        factories.solve(entry=factories.entry(bout=past, agent=factories.agent()), challenge=past.challenges.get())
    template = factories.challenge_template(tier=3)
    lines = [json.dumps({"kind": "run", "schema": SCHEMA, "key": "tier-three", "label": "", "source": "manual",
                         "bout": None, "recorded_at": timezone.now().isoformat(), "notes": ""})]
    lines += [json.dumps({"kind": "result", "run": "tier-three", "instance": str(uuid.uuid4()),
                          "template": template.slug, "template_version": "", "language": "python", "tier": 3,
                          "solver": f"s{i}", "solved": i < 3, "attempts": 1, "submissions": 1 if i < 3 else 0,
                          "solve_seconds": 60.0 if i < 3 else None}) for i in range(8)]
    calibration_import(lines=lines, by=None)
    bout = factories.bout(tiers=(3,))
    challenge = bout.challenges.get()
    for index in range(6):  # 5 of 6: +45.8 pp over the calibrated 37.5 %
        entry = factories.entry(bout=bout, agent=factories.agent())
        if index < 5:
            factories.solve(entry=entry, challenge=challenge, seconds=100 + 900 * index)
        else:
            factories.attempt(entry=entry, challenge=challenge)

    anomaly = batch_run_now(bout=bout).results.get().anomaly

    assert anomaly["expected"]["calibration"] == {"solved": 3, "attempted": 8, "rate": 0.375,
                                                  "measured_on": "calibration runs"}
    assert anomaly["level"] == "quarantine" and "measured on calibration runs" in anomaly["reason"]


def test_rerunning_is_idempotent_and_resumes_where_it_stopped():
    bout = factories.bout(tiers=(1, 2))
    first, second = list(bout.challenges.order_by("position"))
    entries = [factories.entry(bout=bout, agent=factories.agent()) for _ in range(3)]
    for index, entry in enumerate(entries):
        factories.solve(entry=entry, challenge=first, seconds=100 + 50 * index)
        factories.solve(entry=entry, challenge=second, seconds=400 + 70 * index)
    run = batch_run_now(bout=bout)
    signals = SubmissionSignal.objects.filter(source="batch").count()
    assert signals == 6 * 4
    # A finished run is left alone.
    assert batch_run_execute(run_id=run.pk).finished_at == run.finished_at
    # A run interrupted after its first challenge redoes only the second.
    BatchChallengeResult.objects.filter(run=run, challenge=second).delete()
    BatchRun.objects.filter(pk=run.pk).update(state=BatchRun.State.RUNNING, done=1)
    kept = BatchChallengeResult.objects.get(run=run, challenge=first).pk
    resumed = batch_run_execute(run_id=run.pk)
    assert (resumed.state, resumed.done, resumed.tries) == (BatchRun.State.DONE, 2, 2)
    assert BatchChallengeResult.objects.get(run=run, challenge=first).pk == kept
    assert SubmissionSignal.objects.filter(source="batch").count() == signals


def test_closing_a_bout_queues_its_batch_once(django_capture_on_commit_callbacks):
    bout = factories.bout(tiers=(1,))
    broker.purge()
    before = broker.size()
    with django_capture_on_commit_callbacks(execute=True):
        bout_transition(bout=bout, action="close", by=None, reason="time is up")
    run = BatchRun.objects.get(bout=bout)
    assert run.trigger == BatchRun.Trigger.BOUT_CLOSE and run.state == BatchRun.State.QUEUED
    (task,) = broker.drain()
    assert task["func"] == "detection.tasks_batch.batch_run_task" and task["args"] == (run.pk,)
    # The queued task runs the batch (here in-process, as a worker would).
    from detection.tasks_batch import batch_run_task

    assert batch_run_task(run.pk)["state"] == BatchRun.State.DONE
    # Asking again on close finds the same run and queues nothing.
    from detection.services.batch import batch_on_bout_closed

    with django_capture_on_commit_callbacks(execute=True):
        assert batch_on_bout_closed(bout=bout).pk == run.pk
    assert broker.size() == before  # the one task was drained above; nothing new


def test_detect_bout_command_prints_json(capsys):
    bout = factories.bout(tiers=(2,))
    challenge = bout.challenges.get()
    entry = factories.entry(bout=bout, agent=factories.agent())
    factories.solve(entry=entry, challenge=challenge, seconds=90)
    call_command("detect_bout", bout.handle, "--json")
    report = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert report["bout"] == bout.handle and report["state"] == "done"
    (entry_report,) = report["challenges"]
    assert entry_report["challenge"] == challenge.handle
    assert set(entry_report) >= {"convergence", "anomaly", "temporal", "provenance", "cases"}
    assert entry_report["anomaly"]["level"] == "insufficient"
    call_command("detect_bout", bout.handle)
    assert "solve rate" in capsys.readouterr().out
    before = Bout.objects.count()
    with pytest.raises(Exception, match="No bout"):
        call_command("detect_bout", "nope")
    assert Bout.objects.count() == before


def test_the_sweep_requeues_lost_and_failed_runs_within_their_tries(django_capture_on_commit_callbacks):
    from detection.services.batch import batch_runs_recover

    now = timezone.now()
    lost = BatchRun.objects.create(bout=factories.bout(tiers=(1,)), trigger=BatchRun.Trigger.STAFF)
    fresh = BatchRun.objects.create(bout=factories.bout(tiers=(1,)), trigger=BatchRun.Trigger.STAFF)
    failed = BatchRun.objects.create(bout=factories.bout(tiers=(1,)), trigger=BatchRun.Trigger.STAFF,
                                     state=BatchRun.State.FAILED, tries=1, error="OperationalError: locked")
    spent = BatchRun.objects.create(bout=factories.bout(tiers=(1,)), trigger=BatchRun.Trigger.STAFF,
                                    state=BatchRun.State.FAILED, tries=3, error="still broken")
    BatchRun.objects.filter(pk=lost.pk).update(created_at=now - timedelta(hours=1))
    broker.purge()
    before = broker.size()
    with django_capture_on_commit_callbacks(execute=True):
        result = batch_runs_recover(now=now)
    assert result["requeued"] == [lost.pk, failed.pk]
    assert broker.size() == before + 2
    assert {fresh.pk, spent.pk}.isdisjoint(result["requeued"])


def test_staff_can_turn_the_batch_on_close_off(django_capture_on_commit_callbacks):
    config_set(key="detection.batch.on_close", value=False, by=None, reason="batch run by hand this season")
    bout = factories.bout(tiers=(1,))
    broker.purge()
    before = broker.size()
    with django_capture_on_commit_callbacks(execute=True):
        bout_transition(bout=bout, action="close", by=None, reason="time is up")
    assert not BatchRun.objects.filter(bout=bout).exists() and broker.size() == before
