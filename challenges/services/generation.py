"""The generation pipeline (spec 003 "Generation Pipeline", steps 1–10), Django side.

rotation picks an eligible template → the engine draws every slot with a CSPRNG and
builds the instance → fingerprint dedup against the window, hall of fame and known
corpus, and code-level dedup of the identifier-erased source against the window and the
hall of fame (a collision of either redraws; after ``generation.max_collisions`` in a
row the template is rotated away; ``novelty.code.enforcement`` decides whether the code
verdict redraws, queues for review or is only recorded) → release gates (oracle, canaries,
mutation adequacy, visible suite, static checks, history, realism — which refuses
contributor names the registry already holds; draws avoid its surnames) → leak audit of
the workspace as an agent would receive it →
seal and store → release (or the manual-review queue when dedup flags it).

The release gates include the task statement (it exists and leaks nothing) and, from
tier 3, the hint audit; the leak audit reads the statement with the workspace.

Once the gates pass, the instance's measured difficulty (size, causal distance, grep rank,
visible failures: ``challenges.services.difficulty``) is compared with its tier's floor and
recorded on the instance; with ``difficulty.enforcement`` = enforce a shortfall redraws (a
draw too small in lines or files is refused before the gates, sparing their sandbox runs).

Every pass leaves a GenerationAttempt row with its outcome and reason, so staff can
answer "why was this template skipped?" and read the regeneration rate.
"""

from __future__ import annotations

import secrets
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from challenges.audit import AuditTarget, run_audit
from challenges.audit.from_engine import context_for_instance, workspace_archive, write_workspace
from challenges.engine import api as engine
from challenges.engine.emitters import get_emitter
from challenges.engine.errors import EngineError
from challenges.engine.gates import GateConfig, validate
from challenges.engine.model import registry
from challenges.engine.templates import load_all
from challenges.models import ChallengeInstance, ChallengeTemplate, GenerationAttempt, GenerationRun
from challenges.novelty import CodeDecision, Decision, Verdict
from challenges.novelty.code_decision import combine
from challenges.selectors.generation import contributor_names_used
from challenges.selectors.rotation import language_stack, rotation_evaluate
from challenges.services.code_dedup import (
    code_dedup_check,
    code_dedup_record,
    code_signature_of,
    code_signature_store,
)
from challenges.services.difficulty import generated_difficulty_assess, generated_size_refusal
from challenges.services.instances import instance_release, instance_store
from challenges.services.intake import template_activate_if_passing
from challenges.services.novelty import decision_as_dict, fingerprint_check, fingerprint_review_open
from challenges.services.rotation import rotation_pick
from challenges.services.workspaces import ARCHIVE_TOP
from core import formatting
from core.config import config_value, config_values
from core.errors import Conflict, ValidationFailed
from core.queue import enqueue_on_commit
from core.services import audit_event_record

Outcome = GenerationAttempt.Outcome


@dataclass
class GenerationResult:
    instance: ChallengeInstance | None
    attempts: list[GenerationAttempt] = field(default_factory=list)
    reason: str = ""


def template_sync(*, activate: bool = False, by: AbstractBaseUser | None = None) -> list[ChallengeTemplate]:
    """Mirror the engine's registered templates into the catalogue (idempotent).

    New templates arrive as drafts; with ``activate`` each new one is activated only if it
    passes the substrate intake gate (``template_activate_if_passing``), otherwise it stays a
    draft whose ``state_reason`` says why. Sync writes only the engine-owned columns
    (title, family, bug class, ``spec_tier``, languages); state, weight and the tier override are staff's and never touched,
    so a tier set from measurement outlives every sync.
    """
    load_all()
    synced = []
    for slug, cls in sorted(registry().items()):
        spec = cls.spec
        engine_values = {"title": spec.title, "family": spec.family, "bug_class": spec.bug_class,
                         "spec_tier": spec.tier, "languages": list(spec.languages)}
        with transaction.atomic():
            template, created = ChallengeTemplate.objects.select_for_update().get_or_create(
                slug=slug, defaults={**engine_values, "state": ChallengeTemplate.State.DRAFT},
            )
            changed = {name: value for name, value in engine_values.items() if getattr(template, name) != value}
            if changed:
                before = {name: getattr(template, name) for name in changed}
                for name, value in changed.items():
                    setattr(template, name, value)
                template.save(update_fields=[*changed, "updated_at"])
                template.refresh_from_db(fields=["tier"])
                audit_event_record(verb="template.synced", target=template, actor=by, actor_label="engine registry",
                                   before=before, after=changed, reason="template code changed")
            elif created:
                template.refresh_from_db(fields=["tier"])
                audit_event_record(verb="template.registered", target=template, actor=by,
                                   actor_label="engine registry", after={"state": template.state},
                                   reason="registered by the engine")
        if created and activate:
            template_activate_if_passing(template=template, by=by, reason="registered by the engine")
        synced.append(template)
    return synced


def _log(run, template, language, outcome, reason, seconds, instance=None) -> GenerationAttempt:
    return GenerationAttempt.objects.create(run=run, template=template, language=language, outcome=outcome,
                                            reason=reason[:4000], seconds=round(seconds, 3), instance=instance)


def _lexicons(allowed_keys: list[str] | None):
    pool = engine.available_lexicons()
    if allowed_keys is None:
        return pool
    allowed = set(allowed_keys)
    return tuple(lex for lex in pool if lex.key in allowed)


def _gate_config() -> GateConfig:
    values = config_values("generation.")
    return GateConfig(mutation_threshold=values["mutation_threshold"], max_mutants=values["max_mutants"],
                      workers=values["gate_workers"], forgeable_f2p_share=values["forgeable_f2p_share"],
                      silent_visible_tier=values["silent_visible_tier"], hint_tier=values["hint_tier"],
                      hint_window_lines=values["hint_window_lines"],
                      statement_identifier_tier=values["statement_identifier_tier"],
                      statement_ngram=values["statement_ngram"])


def instance_generate(
    *,
    template: ChallengeTemplate | None = None,
    language: str | None = None,
    run: GenerationRun | None = None,
    release: bool = True,
) -> GenerationResult:
    """Run the pipeline until one instance is released (or flagged), or give up with a reason."""
    if template is not None and template.state != ChallengeTemplate.State.ACTIVE:
        raise ValidationFailed(f"{template.slug} is {template.state}; only active templates (past the intake gate) "
                               "release instances.", code="template_not_active", extra={"field": "template"})
    if template is not None and language is not None and language not in template.languages:
        raise ValidationFailed(f"{template.slug} does not support {language}.", code="language_unsupported",
                               extra={"field": "language"})
    max_collisions = config_value("generation.max_collisions")
    max_passes = config_value("generation.max_passes")
    rng = secrets.SystemRandom()
    result = GenerationResult(instance=None)
    excluded: set[int] = set()
    collisions = 0
    for _ in range(max_passes):
        if template is None:
            choice = rotation_pick(language=language, exclude_template_ids=frozenset(excluded))
            chosen, allowed = choice.template, choice.allowed_lexicon_keys
            # Only languages whose tech stack is outside its reuse window (spec: 60 days).
            free = {tuple(stack) for stack in choice.allowed_stacks}
            languages = [lang for lang in chosen.languages if language_stack(lang) in free] or chosen.languages
        else:
            chosen, allowed, languages = template, None, list(template.languages)
        # A language whose toolchain this machine lacks could never pass the gates.
        languages = [lang for lang in languages if get_emitter(lang).available()] or languages
        lang = language or rng.choice(languages)
        started = time.perf_counter()
        used_names, used_surnames = contributor_names_used()
        try:
            draw = engine.draw(chosen.slug, lang, lexicons=_lexicons(allowed), avoid_surnames=used_surnames,
                               silent_visible_tier=config_value("generation.silent_visible_tier"))
            generated = engine.generate(draw)
        except EngineError as exc:
            result.attempts.append(_log(run, chosen, lang, Outcome.ERROR, f"engine: {exc}", time.perf_counter() - started))
            continue
        generation_seconds = time.perf_counter() - started
        decision = fingerprint_check(fingerprint=generated.fingerprint)
        signature = code_signature_of(generated.files)
        code = code_dedup_check(signature=signature)
        verdict = combine(decision.verdict, code.effective)
        if verdict is Verdict.REJECT:
            collisions += 1
            reason = f"collision {collisions}/{max_collisions}: " + _dedup_reasons(decision, code, Verdict.REJECT)
            result.attempts.append(_log(run, chosen, lang, Outcome.COLLISION, reason, time.perf_counter() - started))
            if collisions >= max_collisions:
                if template is not None:
                    result.reason = f"{collisions} consecutive dedup collisions on {chosen.slug}"
                    return result
                excluded.add(chosen.pk)
                result.attempts.append(_log(run, chosen, lang, Outcome.ROTATED,
                                            f"{collisions} consecutive collisions: rotating to another template", 0))
                collisions = 0
            continue
        collisions = 0
        too_small = generated_size_refusal(generated=generated, tier=_tier_in_force(chosen))
        if too_small is not None:
            result.attempts.append(_log(run, chosen, lang, Outcome.GATE_FAILED,
                                        "difficulty (before the release gates): " + too_small.summary(),
                                        time.perf_counter() - started))
            continue
        report = validate(generated, allow_unsafe=settings.GAUNTLET_SANDBOX_ALLOW_UNSAFE, config=_gate_config(),
                          used_names=used_names, used_surnames=used_surnames)
        if not report.passed:
            result.attempts.append(_log(run, chosen, lang, Outcome.GATE_FAILED, "; ".join(report.failures),
                                        time.perf_counter() - started))
            continue
        gates = _gates_record(report)
        tier = _tier_in_force(chosen)
        measured = generated_difficulty_assess(generated=generated, gates=gates, tier=tier)
        if measured.refused:
            result.attempts.append(_log(run, chosen, lang, Outcome.GATE_FAILED, "difficulty: " + measured.summary(),
                                        time.perf_counter() - started))
            continue
        with tempfile.TemporaryDirectory(prefix="ws-") as tmp:
            root = write_workspace(generated, Path(tmp) / "workspace")
            # The task statement is handed over before turn one: the audit reads it with the workspace.
            audit = run_audit(AuditTarget(root, texts={"statement": generated.statement}),
                              context_for_instance(generated, require_local_identity=True))
            if not audit.passed:
                result.attempts.append(_log(run, chosen, lang, Outcome.AUDIT_FAILED,
                                            "; ".join(f"{f.check}: {f.message}" for f in audit.findings[:20]),
                                            time.perf_counter() - started))
                continue
            instance = _store(chosen, tier, generated, decision, report, audit, root,
                              {"generation_s": round(generation_seconds, 3), "gates_s": round(report.seconds, 3),
                               "total_s": round(time.perf_counter() - started, 3), "sandbox_runs": report.runs},
                              gates=gates, difficulty_profile=measured.record)
            code_signature_store(instance=instance, signature=signature)
            instance = code_dedup_record(instance=instance, decision=code)
        if verdict is Verdict.FLAG:
            fingerprint_review_open(instance=instance, decision=decision, code=code)
            result.attempts.append(_log(run, chosen, lang, Outcome.FLAGGED, _dedup_reasons(decision, code, Verdict.FLAG),
                                        time.perf_counter() - started, instance))
            result.instance = instance
            return result
        code_note = f"code similarity {code.score:.2f} ({code.verdict.value}, enforcement {code.enforcement.value})"
        if release:
            instance = instance_release(
                instance=instance, by=None, actor_label="generator",
                reason=f"all release gates passed, leak audit clean, dedup {decision.verdict.value} "
                       f"(uniqueness {decision.uniqueness:.2f}), {code_note}",
            )
        released_reason = f"uniqueness {decision.uniqueness:.2f}; {code_note}"
        if code.verdict is not Verdict.ACCEPT:
            released_reason += ": " + "; ".join(code.reasons)
        if measured.shortfalls:
            released_reason += f"; difficulty observed, not enforced: {measured.summary()}"
        result.attempts.append(_log(run, chosen, lang, Outcome.RELEASED, released_reason,
                                    time.perf_counter() - started, instance))
        result.instance = instance
        return result
    result.reason = f"no instance after {max_passes} passes"
    return result


def _tier_in_force(template: ChallengeTemplate) -> int:
    """The template's tier now (staff's override, else the spec's), read fresh from the row.

    Read at store time rather than from the object the run started with, so a tier staff
    set while the pipeline ran applies to this very instance.
    """
    return ChallengeTemplate.objects.values_list("tier", flat=True).get(pk=template.pk)


def _dedup_reasons(decision: Decision, code: CodeDecision, verdict: Verdict) -> str:
    """The reasons of whichever check (fingerprint, code or both) led to ``verdict``."""
    parts = []
    if decision.verdict is verdict:
        parts.append("fingerprint: " + "; ".join(decision.reasons))
    if code.effective is verdict:
        parts.append("code: " + "; ".join(code.reasons))
    return " | ".join(parts)


def _gates_record(report) -> dict[str, Any]:
    """The release gates' results as stored on the instance."""
    return {"passed": report.passed, "seconds": round(report.seconds, 3), "runs": report.runs,
            "results": [{"name": r.name, "passed": r.passed, "reasons": r.reasons, "details": r.details}
                        for r in report.results]}


def _store(template, tier, generated, decision, report, audit, root: Path, timings: dict[str, Any], *,
           gates: dict[str, Any], difficulty_profile: dict[str, Any]) -> ChallengeInstance:
    return instance_store(
        template=template, language=generated.language, tier=tier, lexicon_key=generated.draw.lexicon_key,
        tech_stack=list(generated.fingerprint.get("tech_stack", [])), fingerprint=generated.fingerprint,
        draw=generated.draw.to_dict(), secrets=generated.secrets_dict(), workspace_dir=root, gates=gates,
        audit={"passed": audit.passed, "findings": [f.to_dict() for f in audit.findings], "counts": audit.counts},
        dedup=decision_as_dict(decision),
        uniqueness=decision.uniqueness, timings=timings,
        judge_kit=report.kit.to_dict() if report.kit is not None else None,
        archive=workspace_archive(generated, root, top_dir=ARCHIVE_TOP),
        contributors=sorted({person.name for person in generated.history.people}),
        statement=generated.statement, difficulty=_difficulty(generated, report),
        difficulty_profile=difficulty_profile,
    )


def _difficulty(generated, report) -> dict[str, Any]:
    """The instance's difficulty knobs, with what the gates measured (staff-facing)."""
    visible = report.gate("visible").details
    oracle = report.gate("oracle").details
    return {**generated.difficulty, "visible_failures_on_bug": len(visible.get("failing_on_bug", [])),
            "fail_to_pass": len(oracle.get("fail_to_pass", [])),
            "masking_rejected": oracle.get("masking_rejected")}


def _rotation_refusal(template: ChallengeTemplate, language: str | None) -> Conflict | None:
    """Why the rotation calendar rests ``template`` now, as the error a run request raises; None if eligible."""
    ((_, result),) = rotation_evaluate([template], language=language, now=timezone.now())
    if result.eligible:
        return None
    when = (f"until {formatting.when(result.next_eligible_at)}" if result.next_eligible_at
            else "until staff act on it")
    return Conflict(
        f"{template.slug} is resting on the rotation calendar {when} ({result.binding_rule or 'blocked'}): "
        + "; ".join(result.reasons) + ". Choose another template, let rotation choose, or override the calendar.",
        code="template_ineligible",
        extra={"template": template.slug, "reasons": list(result.reasons), "binding_rule": result.binding_rule,
               "next_eligible_at": result.next_eligible_at.isoformat() if result.next_eligible_at else None},
    )


@transaction.atomic
def generation_run_request(*, count: int, template: ChallengeTemplate | None, language: str | None,
                           by: AbstractBaseUser | None, override_rotation: bool = False) -> GenerationRun:
    """Queue a background generation run (the admin's "generate" action).

    A run for a named template is refused up front (``template_ineligible``, with the
    calendar's reasons) while the rotation calendar rests that template, unless staff
    explicitly override the calendar; the override is recorded with the request.
    """
    if count < 1 or count > config_value("generation.max_run_count"):
        raise ValidationFailed("count is out of range.", code="count_invalid", extra={"field": "count"})
    if template is not None and template.state != ChallengeTemplate.State.ACTIVE:
        raise ValidationFailed(f"{template.slug} is {template.state}; activate it through the intake gate first "
                               f"(manage.py activate_templates {template.slug}, or the Activate action).",
                               code="template_not_active", extra={"field": "template"})
    if template is not None and not override_rotation:
        refusal = _rotation_refusal(template, language)
        if refusal is not None:
            raise refusal
    run = GenerationRun.objects.create(requested_by=by if getattr(by, "is_authenticated", False) else None,
                                       template=template, language=language or "", count=count)
    audit_event_record(verb="generation.requested", target=run, actor=by,
                       after={"count": count, "template": template.slug if template else None, "language": language,
                              "override_rotation": override_rotation})
    enqueue_on_commit("challenges.tasks.generation_run_execute", run.pk)
    return run


def _outcome_note(result: GenerationResult) -> str:
    """Why one requested instance was not released, from its passes."""
    last = result.attempts[-1] if result.attempts else None
    if result.instance is not None and last is not None and last.outcome == Outcome.FLAGGED:
        return (f"instance {str(result.instance.public_id)[:8]} waits in the fingerprint review queue "
                f"({last.reason[:300]})")
    head = result.reason or "not released"
    if last is None:
        return head
    return f"{head}; last pass: {last.get_outcome_display().lower()}: {last.reason[:300]}"


def generation_run_execute(*, run_id: int) -> GenerationRun:
    """Work through a run, recording progress on the row as instances are released.

    The run ends ``done`` when every requested instance was released or waits for review,
    ``failed`` otherwise; either way ``message`` says what happened to each instance that
    was not released, so staff need not dig through the regeneration log.
    """
    claimed = GenerationRun.objects.filter(pk=run_id, state=GenerationRun.State.QUEUED).update(
        state=GenerationRun.State.RUNNING)
    run = GenerationRun.objects.select_related("template").get(pk=run_id)
    if not claimed:
        return run
    notes: list[str] = []
    flagged = failed = 0
    try:
        for _ in range(run.count):
            result = instance_generate(template=run.template, language=run.language or None, run=run)
            if result.instance is not None and result.instance.state == ChallengeInstance.State.RELEASED:
                GenerationRun.objects.filter(pk=run.pk).update(released=run.released + 1)
                run.released += 1
                continue
            if result.instance is not None:
                flagged += 1
            else:
                failed += 1
            notes.append(_outcome_note(result))
    except (Conflict, ValidationFailed) as exc:
        failed = run.count - run.released - flagged
        notes.append(exc.message)
    summary = f"{run.released} of {formatting.plural(run.count, 'instance')} released"
    if flagged:
        summary += f", {flagged} waiting for fingerprint review"
    if failed:
        summary += f", {failed} not generated"
    run.state = GenerationRun.State.FAILED if failed else GenerationRun.State.DONE
    run.message = "; ".join([summary, *notes])[:4000]
    run.finished_at = timezone.now()
    run.save(update_fields=["state", "message", "finished_at", "released"])
    return run


def regeneration_rate(*, attempts) -> float:
    """Share of pipeline passes that had to be redone (spec: alert above 25 %)."""
    total = attempts.count()
    if not total:
        return 0.0
    redone = attempts.exclude(outcome__in=[Outcome.RELEASED, Outcome.FLAGGED]).count()
    return redone / total
