"""The post-bout batch (spec 003 "Post-Bout Detection"): request, run, record, respond.

``batch_run_request`` queues a run (on bout close, once per bout; staff and the command may
ask again), ``batch_run_execute`` is the django-q2 task's body. The run is idempotent:
each challenge's result is committed on its own with the run's progress, so a retried task
skips what is done, and every finding is written with ``update_or_create`` on the
``(submission, kind, source)`` key of :class:`~detection.models.SubmissionSignal`.

Per challenge, on each agent's first solving submission:

1. **convergence** – the analysis core on the functions each patch changes; every pair's
   distance is kept, the closest pairs with their normal-form diff; a challenge above the
   investigate line is investigated (its solvers logged); after every challenge, pairs of
   competitors close on several challenges beyond chance (``detection.batch.copies``) are
   flagged;
2. **solve-rate anomaly** – against the calibrated rate of the tier (past closed bouts)
   or the spec band;
3. **temporal clustering** – a seeded permutation scan test: by default each solver's start
   kept and the challenge's solve durations re-paired (``detection.temporal.null`` =
   ``starts``), or against the bout's arrivals (``bout``);
4. **provenance** – the code each patch adds looked up in the local index (and a web
   backend, if an operator configured one).

Findings that cross a line escalate the submission's composite (never lower it) and go to
the response hook with the reason.
"""

from __future__ import annotations

import hashlib
import logging
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F, Q
from django.utils import timezone

from challenges.services.workspaces import WorkspaceError, workspace_tree
from competition.models import Attempt, Bout, BoutChallenge, Submission
from core.config import config_value
from core.crypto import SealError
from core.queue import enqueue_on_commit
from core.services import audit_event_record
from detection.analysis import AnalysisError, AnalysisParams, analyse_patches, normal_form_diff, read_workspace
from detection.batch import expected_rate, solve_rate_anomaly, temporal_cluster, temporal_cluster_given_starts
from detection.batch.copies import PairRecord, copy_pairs
from detection.batch_config import anomaly_params, cluster_params, convergence_params, copy_params
from detection.models import BatchChallengeResult, BatchRun, CompositeScore, ContaminationCase, SubmissionSignal
from detection.services.cases import case_open_from_signals
from detection.services.provenance import GOLD_LABEL, provenance_lookup, provenance_platform_refresh
from detection.services.response import respond_to_composite
from detection.signals import action_rank

logger = logging.getLogger(__name__)

TASK = "detection.tasks_batch.batch_run_task"
SOURCE = SubmissionSignal.Source.BATCH
# Findings about a challenge rather than about one solver: they open (or raise) a case on
# the instance — L2 to investigate, L3 to quarantine it — and never raise a solver's composite.
CHALLENGE_LEVEL = frozenset({"solve_rate_anomaly"})
CHALLENGE_CASE_LEVEL = {CompositeScore.Action.FLAG: ContaminationCase.Level.INVESTIGATE,
                        CompositeScore.Action.QUARANTINE: ContaminationCase.Level.QUARANTINE}


# --- requesting -------------------------------------------------------------------------------


def batch_run_request(*, bout: Bout, trigger: str, by: AbstractBaseUser | None = None) -> BatchRun:
    """Queue a batch run of ``bout`` after commit. On bout close it is queued once per bout
    (a repeated close, or a retried transaction, finds the first run)."""
    if trigger == BatchRun.Trigger.BOUT_CLOSE:
        existing = BatchRun.objects.filter(bout=bout, trigger=trigger).first()
        if existing is not None:
            return existing
        try:
            with transaction.atomic():
                run = BatchRun.objects.create(bout=bout, trigger=trigger)
        except IntegrityError:
            return BatchRun.objects.get(bout=bout, trigger=trigger)
    else:
        run = BatchRun.objects.create(bout=bout, trigger=trigger,
                                      requested_by=by if getattr(by, "is_authenticated", False) else None)
    audit_event_record(verb="detection.batch_requested", target=run, actor=by,
                       after={"bout": bout.handle, "trigger": trigger}, reason=f"post-bout batch ({trigger})")
    enqueue_on_commit(TASK, run.pk, group="detection-batch", recovered_by="the batch sweep")
    return run


def batch_run_now(*, bout: Bout, by: AbstractBaseUser | None = None,
                  trigger: str = BatchRun.Trigger.COMMAND) -> BatchRun:
    """Run a new batch of ``bout`` in this process, now (the command; tests)."""
    run = BatchRun.objects.create(bout=bout, trigger=trigger,
                                  requested_by=by if getattr(by, "is_authenticated", False) else None)
    audit_event_record(verb="detection.batch_requested", target=run, actor=by,
                       after={"bout": bout.handle, "trigger": trigger}, reason=f"post-bout batch ({trigger}), run now")
    return batch_run_execute(run_id=run.pk)


def batch_runs_recover(*, now=None) -> dict[str, list[int]]:
    """Queue again the runs whose task was lost or failed: queued (or running) for longer
    than ``detection.batch.stale_minutes``, or failed with tries left. A run that failed
    ``detection.batch.max_tries`` times stays failed, its error shown to staff."""
    now = now or timezone.now()
    stale = now - timedelta(minutes=config_value("detection.batch.stale_minutes"))
    max_tries = config_value("detection.batch.max_tries")
    requeued = []
    candidates = BatchRun.objects.filter(
        Q(state=BatchRun.State.QUEUED, created_at__lt=stale)
        | Q(state=BatchRun.State.RUNNING, started_at__lt=stale)
        | Q(state=BatchRun.State.FAILED)).filter(tries__lt=max_tries).order_by("pk")
    for run in candidates:
        enqueue_on_commit(TASK, run.pk, group="detection-batch", recovered_by="the batch sweep")
        requeued.append(run.pk)
    return {"requeued": requeued}


def batch_on_bout_closed(*, bout: Bout) -> BatchRun | None:
    """What closing a bout calls: queue its batch unless staff turned that off."""
    if not config_value("detection.batch.on_close"):
        return None
    return batch_run_request(bout=bout, trigger=BatchRun.Trigger.BOUT_CLOSE)


# --- running ----------------------------------------------------------------------------------


def _first_solves(bout: Bout) -> dict[int, list[Submission]]:
    """Each agent's first solving submission per challenge (challenge id → submissions)."""
    rows = (Submission.objects.filter(attempt__challenge__bout=bout, result=Submission.Result.SOLVED)
            .select_related("attempt", "agent").order_by("attempt__challenge_id", "agent_id", "received_at", "id"))
    out: dict[int, list[Submission]] = {}
    seen: set[tuple[int, int]] = set()
    for submission in rows:
        key = (submission.attempt.challenge_id, submission.agent_id)
        if key in seen:
            continue
        seen.add(key)
        out.setdefault(key[0], []).append(submission)
    return out


def tier_calibration(*, tier: int, exclude_bout: Bout, now=None) -> tuple[int, int]:
    """(agents that solved, agents that attempted) over challenges of ``tier`` in bouts
    closed within the calibration window, ``exclude_bout`` left out."""
    now = now or timezone.now()
    since = now - timedelta(days=config_value("detection.anomaly.calibration_days"))
    challenges = BoutChallenge.objects.filter(bout__state=Bout.State.CLOSED, bout__closed_at__gte=since,
                                              instance__tier=tier).exclude(bout=exclude_bout)
    attempted = (Attempt.objects.filter(challenge__in=challenges).values("entry_id", "challenge_id")
                 .distinct().count())
    solved = (Submission.objects.filter(attempt__challenge__in=challenges, result=Submission.Result.SOLVED)
              .values("agent_id", "attempt__challenge_id").distinct().count())
    return solved, attempted


def tier_expected_measurement(*, tier: int, exclude_bout: Bout, minimum: int, now=None) -> tuple[tuple[int, int], str]:
    """The measured ``(solved, attempted)`` of ``tier`` the anomaly compares with, and what it
    was measured on: calibration runs recorded within the window when they hold at least
    ``minimum`` results (a run built from ``exclude_bout`` left out), else past closed bouts."""
    from challenges.models import CalibrationResult

    now = now or timezone.now()
    since = now - timedelta(days=config_value("detection.anomaly.calibration_days"))
    results = (CalibrationResult.objects.filter(tier=tier, run__recorded_at__gte=since)
               .exclude(run__bout_handle=exclude_bout.handle))
    attempted = results.count()
    if attempted >= minimum:
        return (results.filter(solved=True).count(), attempted), "calibration runs"
    return tier_calibration(tier=tier, exclude_bout=exclude_bout, now=now), "past bouts"


def _seed(challenge: BoutChallenge) -> int:
    return int.from_bytes(hashlib.sha256(f"temporal:{challenge.handle}".encode()).digest()[:4], "big")


def added_text(patch: str) -> tuple[str, ...]:
    """The lines a patch adds, each stripped, blank ones dropped: its text as written,
    comments and names included, layout not."""
    return tuple(line[1:].strip() for line in patch.splitlines()
                 if line.startswith("+") and not line.startswith("+++") and line[1:].strip())


def _pair_dict(pair, owners: dict[str, int], agents: dict[str, int], texts: dict[str, tuple[str, ...]]
               ) -> dict[str, Any]:
    data = pair.as_dict()
    data["agents"] = [agents[pair.a], agents[pair.b]]
    data["same_owner"] = owners[pair.a] == owners[pair.b]
    data["verbatim"] = texts[pair.a] == texts[pair.b]
    return data


def _convergence(challenge: BoutChallenge, solves: list[Submission]) -> tuple[dict, list, list, dict[str, dict]]:
    """(challenge convergence, every pair, closest pairs with diffs, per-submission finding)."""
    instance = challenge.instance

    def unknown(status: str, reason: str) -> tuple[dict, list, list, dict[str, dict]]:
        # Not computed is "unknown" (no value), never zero.
        finding = {"value": None, "action": CompositeScore.Action.NONE, "reason": reason, "evidence": {}}
        return {"status": status, "reason": reason}, [], [], {s.handle: finding for s in solves}

    if len(solves) < 2:
        return unknown("not_enough", f"{len(solves)} solving patch(es): nothing to compare")
    try:
        workspace = read_workspace(workspace_tree(instance))
    except (WorkspaceError, SealError) as exc:
        return unknown("unavailable", f"workspace unavailable: {exc}")
    params = convergence_params()
    try:
        report = analyse_patches({s.handle: s.patch for s in solves}, workspace, instance.language,
                                 tier=instance.tier, params=AnalysisParams(convergence=params))
    except AnalysisError as exc:
        return unknown("unavailable", f"not analysed: {exc}")
    owners = {s.handle: s.agent.owner_id for s in solves}
    agents = {s.handle: s.agent_id for s in solves}
    texts = {s.handle: added_text(s.patch) for s in solves}
    pairs = sorted(report.pairs, key=lambda p: (p.lower, p.a, p.b))
    every = [_pair_dict(p, owners, agents, texts) for p in pairs]
    analysed = {s.name: s for s in report.solutions}
    shown = config_value("detection.batch.pairs_shown")
    closest = []
    for pair in pairs[:shown]:
        data = _pair_dict(pair, owners, agents, texts)
        data["normal_form_diff"] = normal_form_diff(analysed[pair.a], analysed[pair.b])
        closest.append(data)
    conv = report.convergence
    findings: dict[str, dict] = {}
    for solve in solves:
        mine = [p for p in pairs if solve.handle in (p.a, p.b)]
        near = [{"with": p.b if p.a == solve.handle else p.a, "agent": agents[p.b if p.a == solve.handle else p.a],
                 "distance": round(p.upper, 4), "same_owner": owners[p.a] == owners[p.b]} for p in mine[:3]]
        error = next((e.as_dict() for e in report.errors if e.solution == solve.handle), None)
        if error is not None:
            findings[solve.handle] = {"value": None, "action": CompositeScore.Action.NONE, "evidence": {"error": error},
                                      "reason": f"patch not analysed: {error.get('message', '')}"}
            continue
        reason = (f"challenge convergence {conv.score:.2f} (band {conv.band}, tier adjustment {conv.adjustment:+.2f}, "
                  f"{conv.pair_count} pairs)")
        # Convergence is a finding about the challenge (spec: it triggers an investigation of
        # it); each solver is logged, not accused: most honest solvers of a simple bug converge.
        # Solvers who agree with one competitor beyond chance are flagged by the copy-pair step.
        action = CompositeScore.Action.LOG if conv.investigate else CompositeScore.Action.NONE
        if conv.investigate:
            reason += f", above the investigate line {params.investigate_above:g}: the challenge is investigated"
        findings[solve.handle] = {"value": round(conv.score, 6), "action": action, "reason": reason,
                                  "evidence": {"convergence": conv.as_dict(), "nearest": near}}
    summary = {"status": "done", **conv.as_dict(), "solutions": len(report.solutions),
               "errors": [e.as_dict() for e in report.errors]}
    return summary, every, closest, findings


def _anomaly(challenge: BoutChallenge, solves: list[Submission], bout: Bout) -> tuple[dict, dict | None]:
    params = anomaly_params()
    attempted = Attempt.objects.filter(challenge=challenge).values("entry_id").distinct().count()
    tier = challenge.instance.tier
    measured, measured_on = tier_expected_measurement(tier=tier, exclude_bout=bout,
                                                      minimum=params.min_calibration_attempts)
    expected = expected_rate(tier, params, calibration=measured, measured_on=measured_on)
    result = solve_rate_anomaly(len(solves), attempted, expected, params)
    action = {"quarantine": CompositeScore.Action.QUARANTINE,
              "investigate": CompositeScore.Action.FLAG}.get(result.level, CompositeScore.Action.NONE)
    finding = {"value": round(result.value, 6), "action": action, "reason": result.reason,
               "evidence": result.as_dict()} if solves else None
    return result.as_dict(), finding


def _temporal(challenge: BoutChallenge, solves: list[Submission], pool: list[float], bout: Bout
              ) -> tuple[dict, dict[str, dict]]:
    times = [(s.received_at - bout.starts_at).total_seconds() for s in solves]
    if config_value("detection.temporal.null") == "starts":
        starts = [(s.attempt.started_at - bout.starts_at).total_seconds() for s in solves]
        result = temporal_cluster_given_starts(starts, [t - a for t, a in zip(times, starts, strict=True)],
                                               seed=_seed(challenge), params=cluster_params())
    else:
        result = temporal_cluster(times, pool, seed=_seed(challenge), params=cluster_params())
    findings = {}
    for solve, at in zip(solves, times, strict=True):
        inside = result.window is not None and result.window[0] <= at <= result.window[1]
        if result.level == "insufficient":
            findings[solve.handle] = {"value": None, "action": CompositeScore.Action.NONE, "reason": result.reason,
                                      "evidence": result.as_dict()}
            continue
        value = result.value if inside else 0.0
        action = CompositeScore.Action.FLAG if result.flagged and inside else CompositeScore.Action.NONE
        where = "inside" if inside else "outside"
        findings[solve.handle] = {"value": round(value, 6), "action": action,
                                  "reason": f"solved {at:.1f} s into the bout, {where} the narrowest window; "
                                            + result.reason,
                                  "evidence": {**result.as_dict(), "at_seconds": round(at, 3), "inside": inside}}
    return result.as_dict(), findings


def _provenance(challenge: BoutChallenge, solves: list[Submission]) -> tuple[dict, dict[str, dict]]:
    instance = challenge.instance
    investigate_share = config_value("detection.provenance.investigate_share")
    exclude = frozenset({f"{GOLD_LABEL}:{instance.public_id}"})
    findings, matched = {}, 0
    for solve in solves:
        try:
            found = provenance_lookup(patch=solve.patch, language=instance.language, exclude=exclude)
        except AnalysisError as exc:
            findings[solve.handle] = {"value": None, "action": CompositeScore.Action.NONE,
                                      "reason": f"not looked up: {exc}", "evidence": {}}
            continue
        best = found["matches"][0] if found["matches"] else None
        if best is None:
            findings[solve.handle] = {"value": 0.0, "action": CompositeScore.Action.NONE, "evidence": found,
                                      "reason": f"no indexed source holds this patch's added code "
                                                f"({found['index_sources']} sources indexed)"}
            continue
        matched += 1
        public = best["kind"] in ("public", "corpus")
        if public and best["share"] >= investigate_share:
            action = CompositeScore.Action.FLAG
        else:
            action = CompositeScore.Action.LOG
        lines = best["source_lines"]
        findings[solve.handle] = {
            "value": round(best["share"], 6), "action": action, "evidence": found,
            "reason": (f"{best['share']:.0%} of the added code's fingerprints found in {best['source']} lines "
                       f"{lines[0]}-{lines[1]} ({best['kind']} source)"),
        }
    return {"looked_up": len(solves), "matched": matched}, findings


def _escalate(submission: Submission, action: str, reasons: list[str], findings: dict[str, Any]) -> dict | None:
    """Raise the submission's composite action to ``action`` (never lower it), record why,
    and hand it to the response hook. Returns the action taken, or None."""
    if action_rank(action) == 0:
        return None
    if not CompositeScore.objects.filter(submission=submission).exists():
        # Real time has not scored it yet (a backlog at close): score it now, so the
        # composite carries both halves and the real-time sweep does not skip it.
        from detection.services.realtime import submission_detect

        try:
            submission_detect(submission_id=submission.pk)
        except (SealError, WorkspaceError) as exc:
            logger.warning("real-time detection of %s impossible (%s); post-bout findings recorded alone",
                           submission.handle, exc)
    composite, _ = CompositeScore.objects.select_for_update().get_or_create(submission=submission)
    before = composite.action
    components = dict(composite.components or {})
    # What real time decided, kept once, so the two halves' findings stay apart in the record.
    components.setdefault("realtime_action", before)
    merged = dict(components.get("post_bout") or {})
    for kind, taken in findings.items():
        if taken is not None and action_rank(taken) >= action_rank(merged.get(kind) or CompositeScore.Action.NONE):
            merged[kind] = taken
    components["post_bout"] = merged
    composite.components = components
    text = "post-bout: " + "; ".join(reasons)
    if action_rank(action) > action_rank(before):
        composite.action = action
        composite.reason = (composite.reason + "\n" if composite.reason else "") + text
    composite.save(update_fields=["action", "reason", "components", "updated_at"])
    audit_event_record(verb="detection.batch_escalated", target=submission, actor_label="post-bout batch",
                       before={"action": before}, after={"action": composite.action}, reason=text[:2000])
    respond_to_composite(composite)
    return {"submission": submission.handle, "agent": submission.agent_id, "action": composite.action,
            "was": before, "reason": text}


@transaction.atomic
def _record_challenge(run: BatchRun, challenge: BoutChallenge, solves: list[Submission], pool: list[float]
                      ) -> BatchChallengeResult:
    bout = run.bout
    convergence, pairs, closest, conv = _convergence(challenge, solves)
    anomaly, anomaly_finding = _anomaly(challenge, solves, bout)
    temporal, clustered = _temporal(challenge, solves, pool, bout)
    provenance, traced = _provenance(challenge, solves)
    actions, challenge_signals = [], []
    for solve in solves:
        per_kind = {"convergence": conv.get(solve.handle), "solve_rate_anomaly": anomaly_finding,
                    "temporal_cluster": clustered.get(solve.handle), "provenance": traced.get(solve.handle)}
        worst, reasons = CompositeScore.Action.NONE, []
        for kind, finding in per_kind.items():
            if finding is None:
                continue
            signal, _ = SubmissionSignal.objects.update_or_create(
                submission=solve, kind=kind, source=SOURCE,
                defaults={"value": finding["value"], "weight": 0.0, "evidence": finding["evidence"],
                          "reason": finding["reason"]},
            )
            if kind in CHALLENGE_LEVEL:
                # A finding about the challenge (everyone solved it more often than its tier
                # predicts) says nothing about this solver: it acts on the instance, below.
                challenge_signals.append(signal)
                continue
            if action_rank(finding["action"]) > 0:
                reasons.append(f"{kind}: {finding['reason']}")
                if action_rank(finding["action"]) > action_rank(worst):
                    worst = finding["action"]
        taken = _escalate(solve, worst, reasons, {k: (f or {}).get("action") for k, f in per_kind.items()})
        if taken:
            actions.append(taken)
    level = CHALLENGE_CASE_LEVEL.get(anomaly_finding["action"]) if anomaly_finding else None
    if level is not None and challenge_signals:
        case_open_from_signals(signals=challenge_signals, level=level, source=ContaminationCase.Source.BATCH,
                               reason=f"solve-rate anomaly on {challenge.handle}: {anomaly_finding['reason']}",
                               actor_label="post-bout batch")
        actions.append({"challenge": challenge.handle, "case_level": int(level), "reason": anomaly_finding["reason"]})
    if convergence.get("investigate"):
        audit_event_record(verb="detection.convergence_investigation", target=challenge,
                           actor_label="post-bout batch", after={"run": run.pk, "score": convergence["score"],
                                                                  "band": convergence["band"]},
                           reason=f"convergence {convergence['score']:.2f} above the investigate line")
    result, _ = BatchChallengeResult.objects.update_or_create(
        run=run, challenge=challenge,
        defaults={"solving": len(solves), "convergence": convergence, "pairs": pairs, "closest": closest,
                  "anomaly": anomaly, "temporal": temporal, "provenance": provenance, "actions": actions},
    )
    BatchRun.objects.filter(pk=run.pk).update(done=F("done") + 1)
    return result


def _copy_pairs(results: list[BatchChallengeResult]) -> list[dict[str, Any]]:
    """Agents close on several challenges beyond chance (``detection.batch.copies``): each
    close solving submission of a copy pair gets it on its convergence signal and is
    flagged. Recomputed from the stored pairs, so a re-run finds the same."""
    params = copy_params()
    verbatim = config_value("detection.convergence.copy_measure") == "verbatim"
    records, handles = [], {}
    for result in results:
        for pair in result.pairs:
            agent_a, agent_b = pair["agents"]
            # Verbatim: the added text itself (comments, names) is shared, which independent
            # solvers of one bug rarely do even when their fixes are the same in substance.
            distance = (0.0 if pair.get("verbatim") else 1.0) if verbatim else pair["distance"]
            records.append(PairRecord(result.challenge.handle, agent_a, agent_b, distance,
                                      cross_owner=not pair["same_owner"]))
            handles[(result.challenge.handle, frozenset((agent_a, agent_b)))] = (pair["a"], pair["b"])
    found = copy_pairs(records, params)
    for pair in (p for p in found if p.copy):
        for challenge in pair.close:
            for handle in handles[(challenge, frozenset(pair.agents))]:
                submission = Submission.objects.get(handle=handle)
                signal = SubmissionSignal.objects.select_for_update().get(submission=submission, kind="convergence",
                                                                          source=SOURCE)
                evidence = dict(signal.evidence)
                evidence["copy_pair"] = pair.as_dict()
                signal.evidence = evidence
                signal.value = max(signal.value or 0.0, round(1.0 - pair.p_value, 6))
                if "copy pair" not in signal.reason:
                    signal.reason += f"; copy pair: {pair.reason}"
                signal.save(update_fields=["evidence", "value", "reason", "updated_at"])
                _escalate(submission, CompositeScore.Action.FLAG, [f"convergence: {pair.reason}"],
                          {"convergence": CompositeScore.Action.FLAG})
    return [p.as_dict() for p in found]


def batch_run_execute(*, run_id: int) -> BatchRun:
    """Run (or finish) batch ``run_id``. Safe to call again: done challenges are skipped,
    a finished run is left as it is."""
    with transaction.atomic():
        run = BatchRun.objects.select_for_update().select_related("bout").get(pk=run_id)
        if run.state == BatchRun.State.DONE:
            return run
        challenges = list(run.bout.challenges.select_related("instance").order_by("position"))
        run.state, run.tries, run.error = BatchRun.State.RUNNING, run.tries + 1, ""
        run.started_at = run.started_at or timezone.now()
        run.total = len(challenges)
        run.done = run.results.count()
        run.save(update_fields=["state", "tries", "error", "started_at", "total", "done"])
    try:
        platform = provenance_platform_refresh()
        solves = _first_solves(run.bout)
        pool = [(s.received_at - run.bout.starts_at).total_seconds() for group in solves.values() for s in group]
        finished = set(run.results.values_list("challenge_id", flat=True))
        for challenge in challenges:
            if challenge.pk not in finished:
                _record_challenge(run, challenge, solves.get(challenge.pk, []), pool)
    except Exception as exc:
        # Recorded for staff, then raised so the queue's bounded retries apply.
        BatchRun.objects.filter(pk=run.pk).update(state=BatchRun.State.FAILED, error=f"{type(exc).__name__}: {exc}")
        raise
    with transaction.atomic():
        run = BatchRun.objects.select_for_update().get(pk=run.pk)
        results = list(run.results.select_related("challenge"))
        copies = _copy_pairs(results)
        run.summary = {
            "challenges": len(results), "provenance_sources_added": platform,
            "convergence_investigated": sum(1 for r in results if r.convergence.get("investigate")),
            "anomalies": {lvl: sum(1 for r in results if r.anomaly.get("level") == lvl)
                          for lvl in ("investigate", "quarantine")},
            "clustered": sum(1 for r in results if r.temporal.get("flagged")),
            "provenance_matched": sum(r.provenance.get("matched", 0) for r in results),
            "actions": sum(len(r.actions) for r in results),
            "copy_pairs": [c for c in copies if c["copy"]],
            "close_pairs_not_beyond_chance": [c for c in copies if not c["copy"]][:20],
        }
        run.state, run.finished_at = BatchRun.State.DONE, timezone.now()
        run.save(update_fields=["summary", "state", "finished_at"])
        audit_event_record(verb="detection.batch_finished", target=run, actor_label="post-bout batch",
                           after=run.summary, reason=f"post-bout batch of {run.bout.handle}")
    return run
