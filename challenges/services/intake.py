"""The substrate intake gate (spec 000) on catalogue templates, and the activation gate.

``template_intake_check`` generates ``intake.samples`` instances of the template with the
engine (draw + generate, nothing stored: no instance row, no workspace), scores each
emitted codebase on the three lower-is-better axes of ``challenges.audit.intake`` and keeps,
per axis, the worst sample with its reasons. References are the active known-contamination
corpus (title and note as text; with ``intake.corpus_fingerprints`` also a recogniser that
scores fingerprint similarity to each entry) and, when ``intake.canonical_library`` names a
directory, the canonical solutions of the template's bug type. The result is stored on
``ChallengeTemplate.intake`` (with ``intake_checked_at``) and recorded as an audit event
whose reason carries every axis's reasons.

``template_activate`` is the one way a template becomes active from the catalogue: it runs
a fresh check (the template's code may have changed since the last one) and refuses with
``Conflict(code="intake_gate_failed")`` (reasons in ``extra["reasons"]``) when a gated axis
is above its threshold. Rig-confidence is always gated; recognisability and memorisation
only when staff set ``intake.*_gated`` (report-only by default, as in spec 000 v1).

Stored shape of ``ChallengeTemplate.intake``::

    {"passed": bool, "failures": [str], "probe": str, "samples": [label],
     "references": {"corpus": int, "canonical": int},
     "rig_confidence" | "recognisability" | "memorisation":
         {"score", "threshold", "gated", "passed", "reasons": [str], "sample": label, "scores": [int]}}

Memorisation probes are pluggable (see ``challenges.intake_config``): ``ngram_probe`` is the
offline default, ``completion_probe`` wraps a configured model call.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from challenges.audit.codetokens import code_tokens, stripped_text
from challenges.audit.from_engine import substrate_for_instance
from challenges.audit.intake import (
    AxisScore,
    CompletionMemorisationProbe,
    IntakeParams,
    IntakeReport,
    MemorisationProbe,
    NgramMemorisationProbe,
    Reference,
    Substrate,
    memorisation,
    recognisability,
    rig_confidence,
)
from challenges.engine import api as engine
from challenges.engine.errors import EngineError
from challenges.engine.model import get_template
from challenges.models import ChallengeTemplate, CorpusEntry
from challenges.novelty import Fingerprint, FingerprintError, similarity
from challenges.novelty_config import novelty_settings
from challenges.services.rotation import template_set_state
from core.config import config_values
from core.errors import Conflict, ValidationFailed
from core.services import audit_event_record

AXES: tuple[str, ...] = ("rig_confidence", "recognisability", "memorisation")
ACTOR_LABEL = "intake gate"
#: Corpus entries named in a fingerprint-recogniser reason (the nearest ones).
_NEAREST_CORPUS = 3

Recogniser = Callable[[str, Any], tuple[float, Sequence[str]]]


# --- settings -----------------------------------------------------------------------------


def intake_settings() -> dict[str, Any]:
    return config_values("intake.")


def intake_params(values: dict[str, Any] | None = None) -> IntakeParams:
    """The pure core's parameters from the staff-editable settings."""
    v = values if values is not None else intake_settings()
    return IntakeParams(
        rig_threshold=v["rig_threshold"], rig_gated=True,
        recognisability_threshold=v["recognisability_threshold"], recognisability_gated=v["recognisability_gated"],
        memorisation_threshold=v["memorisation_threshold"], memorisation_gated=v["memorisation_gated"],
        recognisability_n=v["recognisability_n"], memorisation_n=v["memorisation_n"],
    )


def _import(path: str, setting: str) -> Any:
    module_name, _, attribute = path.rpartition(".")
    try:
        return getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError, ValueError) as exc:
        raise ValidationFailed(f"{setting} names {path!r}, which cannot be imported: {exc}",
                               code="intake_probe_invalid", extra={"field": setting}) from exc


def ngram_probe(params: IntakeParams) -> MemorisationProbe:
    """The offline default: verbatim n-gram overlap with every reference."""
    return NgramMemorisationProbe(n=params.memorisation_n)


def completion_probe(params: IntakeParams) -> MemorisationProbe:
    """The model-backed probe: ``intake.completion_function`` names ``complete(prompt) -> text``."""
    values = intake_settings()
    path = values["completion_function"]
    if not path:
        raise ValidationFailed("The completion probe needs intake.completion_function (a complete(prompt) -> text "
                               "callable).", code="intake_probe_invalid", extra={"field": "intake.completion_function"})
    complete = _import(path, "intake.completion_function")
    if not callable(complete):
        raise ValidationFailed(f"intake.completion_function {path!r} is not callable.", code="intake_probe_invalid",
                               extra={"field": "intake.completion_function"})
    return CompletionMemorisationProbe(complete=complete, files=values["completion_files"], n=params.memorisation_n)


def memorisation_probe(params: IntakeParams, values: dict[str, Any] | None = None) -> MemorisationProbe:
    """The probe the ``intake.memorisation_probe`` factory builds."""
    path = (values if values is not None else intake_settings())["memorisation_probe"]
    factory = _import(path, "intake.memorisation_probe")
    probe = factory(params) if callable(factory) else None
    if not isinstance(probe, MemorisationProbe):
        raise ValidationFailed(f"intake.memorisation_probe {path!r} did not build a memorisation probe.",
                               code="intake_probe_invalid", extra={"field": "intake.memorisation_probe"})
    return probe


# --- references ---------------------------------------------------------------------------


def corpus_references() -> list[Reference]:
    """Every active known-contamination entry, its title and note as text."""
    return [Reference(name=key, text=f"{title}\n{note}", kind="corpus")
            for key, title, note in CorpusEntry.objects.filter(active=True).order_by("key")
            .values_list("key", "title", "note")]


def canonical_references(*, template: ChallengeTemplate, directory: str) -> list[Reference]:
    """Canonical solutions of the template's bug type (and ``any``) in the library, per language."""
    if not directory:
        return []
    from detection.analysis import AnalysisError, read_canonical_library

    if not Path(directory).is_dir():
        raise ValidationFailed(f"intake.canonical_library {directory!r} is not a directory.",
                               code="intake_canonical_library_missing", extra={"field": "intake.canonical_library"})
    spec = get_template(template.slug).spec
    wanted = {"any", spec.bug_type, spec.bug_class, template.bug_class}
    out = []
    for language in template.languages:
        try:
            library = read_canonical_library(directory, language)
        except AnalysisError as exc:
            raise ValidationFailed(f"intake.canonical_library: {exc}", code="intake_canonical_library_invalid",
                                   extra={"field": "intake.canonical_library"}) from exc
        out += [Reference(name=item.name, text=item.source, kind="canonical", language=language)
                for item in library if item.bug_type in wanted]
    return out


def _corpus_fingerprints() -> list[tuple[str, Fingerprint]]:
    out = []
    for key, data in CorpusEntry.objects.filter(active=True).order_by("key").values_list("key", "fingerprint"):
        try:
            out.append((key, Fingerprint.from_dict(data)))
        except FingerprintError:
            continue  # an invalid stored entry is the corpus services' problem, not a reason to refuse intake
    return out


def fingerprint_recogniser(fingerprint: dict[str, Any], corpus: list[tuple[str, Fingerprint]]) -> Recogniser:
    """A recogniser scoring a sample's fingerprint similarity to the corpus (0-100)."""
    weights = novelty_settings().weights

    def recognise(_stripped: str, _files: Any) -> tuple[float, Sequence[str]]:
        try:
            candidate = Fingerprint.from_dict(fingerprint)
        except FingerprintError as exc:
            return 0.0, [f"fingerprint not comparable: {exc.message}"]
        scored = sorted(((similarity(candidate, other, weights), key) for key, other in corpus), reverse=True)
        reasons = [f"fingerprint {value:.0%} similar to corpus entry {key}"
                   for value, key in scored[:_NEAREST_CORPUS] if value > 0]
        return (scored[0][0] * 100 if scored else 0.0), reasons

    return recognise


# --- samples ------------------------------------------------------------------------------


def template_samples(*, template: ChallengeTemplate, samples: int) -> list[tuple[str, Any]]:
    """``samples`` freshly generated engine instances (label, instance), languages in turn.

    The intake gate judges the template's own code (bolt-on bugs, revealing tests, rigging),
    so samples are built without the per-draw rewrites, which only vary equivalent forms
    and are judged on every released instance by the release gates.
    """
    if samples < 1:
        raise ValidationFailed("samples must be at least 1.", code="samples_invalid", extra={"field": "samples"})
    languages = list(template.languages) or list(get_template(template.slug).spec.languages)
    out = []
    for index in range(samples):
        language = languages[index % len(languages)]
        try:
            generated = engine.generate(engine.draw(template.slug, language), rewrite=False)
        except EngineError as exc:
            raise Conflict(f"{template.slug}: the engine could not generate a {language} sample: {exc}",
                           code="intake_sample_failed", extra={"template": template.slug, "language": language}) from exc
        out.append((f"{language} sample {index + 1}", generated))
    return out


# --- scoring one codebase -----------------------------------------------------------------


def _grams(text: str, n: int) -> set[tuple[str, ...]]:
    tokens = text.split()
    return {tuple(tokens[i:i + n]) for i in range(len(tokens) - n + 1)}


def _sharing(references: Sequence[Reference], candidate: str, n: int, *, strip_names: bool) -> list[Reference]:
    """The references that share at least one token n-gram with ``candidate``.

    The overlap score of every other reference is exactly 0 (same tokens, same n), so
    leaving them out changes no score and no reason; it spares building the candidate's
    n-grams once per corpus entry, which dominated the check with a full corpus.
    """
    wanted = _grams(candidate, n)
    return [r for r in references
            if _grams(" ".join(code_tokens(r.text, r.language, strip_names=strip_names)), n) & wanted]


def intake_score(
    substrate: Substrate,
    *,
    references: Sequence[Reference],
    recognisers: Sequence[Recogniser],
    probe: MemorisationProbe,
    params: IntakeParams,
) -> IntakeReport:
    """``challenges.audit.intake.intake_report`` with the references screened (see ``_sharing``)."""
    files = dict(substrate.files)
    named = _sharing(references, stripped_text(files), params.recognisability_n, strip_names=True)
    screened = f"{len(references)} reference(s) compared, {len(named)} share a name-stripped " \
               f"{params.recognisability_n}-gram"
    recog = recognisability(substrate, named, [*recognisers, lambda _s, _f: (0.0, [screened])], params)
    if isinstance(probe, NgramMemorisationProbe):
        verbatim = _sharing(references, stripped_text(files, strip_names=False), probe.n, strip_names=False)
        screened = f"{len(references)} reference(s) compared, {len(verbatim)} share a verbatim {probe.n}-gram"
        if verbatim:
            memo = memorisation(substrate, verbatim, probe, params)
            memo = replace(memo, reasons=(*memo.reasons, screened))
        else:  # every overlap is 0: the probe would only say so about an empty list
            memo = AxisScore("memorisation", 0, (f"probe {probe.name}", screened), params.memorisation_threshold,
                             params.memorisation_gated)
    else:
        memo = memorisation(substrate, references, probe, params)
    return IntakeReport(rig_confidence(substrate, params), recog, memo)


# --- the check ----------------------------------------------------------------------------


def _worst(label_reports: list[tuple[str, IntakeReport]], axis: str) -> dict[str, Any]:
    scores: list[AxisScore] = [getattr(report, axis) for _, report in label_reports]
    index = max(range(len(scores)), key=lambda i: (scores[i].score, -i))
    label, worst = label_reports[index][0], scores[index]
    return {**{k: v for k, v in worst.to_dict().items() if k != "axis"}, "sample": label,
            "reasons": [f"{label}: {reason}" for reason in worst.reasons], "scores": [s.score for s in scores]}


def gate_failures(intake: dict[str, Any], params: IntakeParams | None = None) -> list[str]:
    """Why ``intake`` blocks activation under ``params`` (today's settings by default); empty when it passes."""
    if not intake or any(axis not in intake for axis in AXES):
        return ["the intake check has never run"]
    params = params or intake_params()
    gates = {"rig_confidence": (True, params.rig_threshold),
             "recognisability": (params.recognisability_gated, params.recognisability_threshold),
             "memorisation": (params.memorisation_gated, params.memorisation_threshold)}
    failures = []
    for axis in AXES:
        gated, threshold = gates[axis]
        score = intake[axis]["score"]
        if gated and score > threshold:
            failures.append(f"{axis.replace('_', '-')} {score} is above the threshold {threshold}: "
                            + "; ".join(intake[axis]["reasons"]))
    return failures


def _summary(intake: dict[str, Any]) -> dict[str, Any]:
    return {axis: intake[axis]["score"] for axis in AXES if axis in intake} | (
        {"passed": intake["passed"]} if "passed" in intake else {})


def _reason_text(intake: dict[str, Any]) -> str:
    parts = []
    for axis in AXES:
        row = intake[axis]
        gate = f"threshold {row['threshold']}" if row["gated"] else "report-only"
        parts.append(f"{axis.replace('_', '-')} {row['score']} ({gate}): " + "; ".join(row["reasons"]))
    head = "passed" if intake["passed"] else "FAILED"
    return f"{head}; " + " | ".join(parts)


def template_intake_check(
    *,
    template: ChallengeTemplate,
    by: AbstractBaseUser | None = None,
    samples: int | None = None,
    substrates: Sequence[tuple[str, Substrate]] | None = None,
    actor_label: str = ACTOR_LABEL,
) -> dict[str, Any]:
    """Score the template's emitted codebases, store the result on the row, record an audit event.

    ``substrates`` (label, Substrate) replaces the engine samples: the gate for a candidate
    codebase that is not (yet) an engine template, e.g. an imported app.
    """
    values = intake_settings()
    params = intake_params(values)
    probe = memorisation_probe(params, values)
    references = [*corpus_references(), *canonical_references(template=template,
                                                              directory=values["canonical_library"])]
    corpus = _corpus_fingerprints() if values["corpus_fingerprints"] else []
    if substrates is not None:
        candidates = [(label, substrate, []) for label, substrate in substrates]
    else:
        candidates = [
            (label, substrate_for_instance(generated),
             [fingerprint_recogniser(generated.fingerprint, corpus)] if corpus else [])
            for label, generated in template_samples(template=template,
                                                     samples=samples or values["samples"])
        ]
    if not candidates:
        raise ValidationFailed("No codebase to check.", code="samples_invalid", extra={"field": "substrates"})
    reports = [(label, intake_score(substrate, references=references, recognisers=recognisers, probe=probe,
                                    params=params))
               for label, substrate, recognisers in candidates]
    intake: dict[str, Any] = {axis: _worst(reports, axis) for axis in AXES}
    intake["probe"] = probe.name
    intake["samples"] = [label for label, _ in reports]
    intake["references"] = {"corpus": sum(r.kind == "corpus" for r in references),
                            "canonical": sum(r.kind == "canonical" for r in references)}
    intake["failures"] = gate_failures(intake, params)
    intake["passed"] = not intake["failures"]
    with transaction.atomic():
        row = ChallengeTemplate.objects.select_for_update().get(pk=template.pk)
        before = _summary(row.intake)
        row.intake, row.intake_checked_at = intake, timezone.now()
        row.save(update_fields=["intake", "intake_checked_at", "updated_at"])
        audit_event_record(verb="template.intake_checked", target=row, actor=by, actor_label=actor_label,
                           before=before, after=_summary(intake), reason=_reason_text(intake))
    template.intake, template.intake_checked_at = row.intake, row.intake_checked_at
    return intake


# --- activation ---------------------------------------------------------------------------


def template_activate(
    *, template: ChallengeTemplate, by: AbstractBaseUser | None, reason: str, actor_label: str = ""
) -> ChallengeTemplate:
    """Activate a template that passes a fresh intake check; refuse with the reasons otherwise."""
    if not reason.strip():
        raise ValidationFailed("A reason is required.", code="reason_required", extra={"field": "reason"})
    if template.state == ChallengeTemplate.State.ACTIVE:
        raise Conflict(f"{template.slug} is already active.", code="state_unchanged")
    intake = template_intake_check(template=template, by=by, actor_label=actor_label or ACTOR_LABEL)
    failures = intake["failures"]
    if failures:
        audit_event_record(verb="template.activation_refused", target=template, actor=by, actor_label=actor_label,
                           after=_summary(intake), reason=f"{reason.strip()} — refused: " + " | ".join(failures))
        raise Conflict(f"{template.slug} cannot be activated: " + " | ".join(failures), code="intake_gate_failed",
                       extra={"template": template.slug, "reasons": failures, "intake": _summary(intake)})
    scores = ", ".join(f"{axis.replace('_', '-')} {intake[axis]['score']}" for axis in AXES)
    return template_set_state(template=template, state=ChallengeTemplate.State.ACTIVE, by=by,
                              actor_label=actor_label, reason=f"{reason.strip()} (intake passed: {scores})")


def template_activate_if_passing(*, template: ChallengeTemplate, by: AbstractBaseUser | None, reason: str) -> bool:
    """Activate, or leave the template a draft whose ``state_reason`` says why (for ``template_sync``)."""
    try:
        template_activate(template=template, by=by, reason=reason, actor_label=ACTOR_LABEL)
    except Conflict as exc:
        if exc.code not in ("intake_gate_failed", "intake_sample_failed"):
            raise
        ChallengeTemplate.objects.filter(pk=template.pk).update(state_reason=exc.message[:4000],
                                                                 updated_at=timezone.now())
        template.refresh_from_db()
        return False
    template.refresh_from_db()
    return True
