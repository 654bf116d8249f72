"""The intake gate service: scores stored with reasons, activation refused above the rig
threshold, template_sync leaving failing templates draft, settings and pluggable probes."""

import json

import pytest

from challenges.audit.from_engine import substrate_for_instance
from challenges.audit.intake import NgramMemorisationProbe, Reference, Substrate, intake_report
from challenges.models import ChallengeTemplate, CorpusEntry
from challenges.novelty import DEFAULT_CORPUS_PATH
from challenges.services.generation import template_sync
from challenges.services.intake import (
    gate_failures,
    intake_params,
    intake_score,
    template_activate,
    template_intake_check,
    template_samples,
)
from core.errors import Conflict, ValidationFailed
from core.models import AuditEvent
from core.services import config_set
from tests.integration.intake.helpers import RECALLED, STAGED_TEXT

pytestmark = pytest.mark.django_db


def _templates():
    return {t.slug: t for t in template_sync()}


def _corpus(count: int = 3) -> list[CorpusEntry]:
    lines = DEFAULT_CORPUS_PATH.read_text().splitlines()[:count]
    return [CorpusEntry.objects.create(**json.loads(line)) for line in lines]


def test_check_stores_three_scores_with_reasons_and_records_an_audit_event():
    template = _templates()["config-coercion"]
    _corpus()
    intake = template_intake_check(template=template, samples=2)

    template.refresh_from_db()
    assert template.intake == intake and template.intake_checked_at is not None
    assert intake["passed"] is True and intake["failures"] == []
    languages = template.languages
    assert intake["samples"] == [f"{languages[0]} sample 1", f"{languages[1 % len(languages)]} sample 2"]
    assert intake["references"] == {"corpus": 3, "canonical": 0}
    assert intake["probe"] == "ngram-overlap"
    rig = intake["rig_confidence"]
    assert (rig["score"], rig["threshold"], rig["gated"]) == (0, 60, True)
    assert rig["reasons"] == [f"{rig['sample']}: no staging signal"] and len(rig["scores"]) == 2
    assert intake["recognisability"]["gated"] is False and intake["memorisation"]["gated"] is False
    # The corpus-backed recogniser names the nearest known-contamination entries.
    assert any("corpus entry" in r for r in intake["recognisability"]["reasons"])
    assert any("probe ngram-overlap" in r for r in intake["memorisation"]["reasons"])

    event = AuditEvent.objects.get(verb="template.intake_checked", target_id=str(template.pk))
    assert event.after == {"rig_confidence": 0, "recognisability": intake["recognisability"]["score"],
                           "memorisation": intake["memorisation"]["score"], "passed": True}
    assert event.reason.startswith("passed; rig-confidence 0 (threshold 60): ")
    assert "no staging signal" in event.reason and "report-only" in event.reason


def test_samples_take_each_language_in_turn_and_store_nothing():
    template = _templates()["booking-ledger"]
    samples = template_samples(template=template, samples=3)
    assert [label for label, _ in samples] == ["python sample 1", "javascript sample 2", "python sample 3"]
    assert [g.language for _, g in samples] == ["python", "javascript", "python"]
    assert not template.instances.exists()
    with pytest.raises(ValidationFailed) as info:
        template_samples(template=template, samples=0)
    assert info.value.code == "samples_invalid"


def test_a_staged_template_scores_above_60_and_cannot_be_activated(staged):
    template = _templates()[staged]
    with pytest.raises(Conflict) as info:
        template_activate(template=template, by=None, reason="ready for the spring season")
    assert info.value.code == "intake_gate_failed"
    reasons = info.value.extra["reasons"]
    assert len(reasons) == 1 and reasons[0].startswith("rig-confidence 100 is above the threshold 60")
    assert "staging marker" in reasons[0] and "harness vocabulary" in reasons[0] and "nothing imports" in reasons[0]

    template.refresh_from_db()
    assert template.state == ChallengeTemplate.State.DRAFT
    assert template.intake["rig_confidence"]["score"] == 100 and template.intake["passed"] is False
    refused = AuditEvent.objects.get(verb="template.activation_refused", target_id=str(template.pk))
    assert refused.reason.startswith("ready for the spring season — refused: rig-confidence 100")
    checked = AuditEvent.objects.get(verb="template.intake_checked", target_id=str(template.pk))
    assert checked.reason.startswith("FAILED; rig-confidence 100 (threshold 60): ")
    assert not AuditEvent.objects.filter(verb="template.active", target_id=str(template.pk)).exists()


def test_a_clean_template_is_activated_with_its_reason_and_scores():
    template = _templates()["config-coercion"]
    activated = template_activate(template=template, by=None, reason="reviewed the emitted code")
    assert activated.state == ChallengeTemplate.State.ACTIVE
    event = AuditEvent.objects.get(verb="template.active", target_id=str(template.pk))
    assert event.reason.startswith("reviewed the emitted code (intake passed: rig-confidence 0, recognisability ")
    with pytest.raises(Conflict) as info:
        template_activate(template=activated, by=None, reason="again")
    assert info.value.code == "state_unchanged"
    with pytest.raises(ValidationFailed) as info:
        template_activate(template=activated, by=None, reason="  ")
    assert info.value.code == "reason_required"


def test_template_sync_activates_only_templates_that_pass(staged):
    synced = {t.slug: t for t in template_sync(activate=True)}
    staged_row = synced.pop(staged)
    assert staged_row.state == ChallengeTemplate.State.DRAFT
    assert staged_row.state_reason.startswith(f"{staged} cannot be activated: rig-confidence 100")
    assert synced and all(t.state == ChallengeTemplate.State.ACTIVE for t in synced.values())
    assert all(t.intake["passed"] and t.intake_checked_at for t in synced.values())
    # A second sync changes nobody's state: staff decide from here.
    again = {t.slug: t.state for t in template_sync(activate=True)}
    assert again[staged] == ChallengeTemplate.State.DRAFT


def test_a_never_checked_template_fails_the_gate():
    assert gate_failures({}) == ["the intake check has never run"]


CANONICAL = "\n".join(f"def f{i}(a, b):\n    return [a + b * {i} for _ in range({i})]\n" for i in range(40))
STAGED_FILES = {"app/__init__.py": "", "app/core.py": "import app.x\n", "app/inject.py": STAGED_TEXT,
                "app/x.py": "VALUE = 1\n"}


def test_the_rig_threshold_is_a_setting():
    template = _templates()["config-coercion"]
    substrate = [("imported app", Substrate(STAGED_FILES, "app", None))]
    intake = template_intake_check(template=template, substrates=substrate)
    assert intake["rig_confidence"]["score"] == 100 and intake["passed"] is False
    assert intake["rig_confidence"]["sample"] == "imported app"

    config_set(key="intake.rig_threshold", value=100, by=None, reason="test: only the maximum blocks")
    assert intake_params().rig_threshold == 100
    assert template_intake_check(template=template, substrates=substrate)["passed"] is True
    clean = [("clean app", Substrate({"app/__init__.py": "", "app/main.py": "import app.x\n", "app/x.py": "V = 1\n"},
                                     "app", None))]
    assert template_intake_check(template=template, substrates=clean)["rig_confidence"]["score"] == 0
    config_set(key="intake.rig_threshold", value=0, by=None, reason="test: any signal blocks")
    assert template_intake_check(template=template, substrates=clean)["passed"] is True
    assert template_intake_check(template=template, substrates=substrate)["passed"] is False


def test_canonical_solutions_feed_recognisability_and_memorisation(tmp_path):
    template = _templates()["config-coercion"]
    substrate = [("copy", Substrate({"app/__init__.py": "", "app/core.py": CANONICAL}, "app", None))]
    intake = template_intake_check(template=template, substrates=substrate)
    assert intake["memorisation"]["score"] == 0 and intake["recognisability"]["score"] == 0

    (tmp_path / "any").mkdir()
    (tmp_path / "any" / "known.py").write_text(CANONICAL)
    (tmp_path / "other-bug-type").mkdir()
    (tmp_path / "other-bug-type" / "unrelated.py").write_text(CANONICAL)
    config_set(key="intake.canonical_library", value=str(tmp_path), by=None, reason="test library")
    intake = template_intake_check(template=template, substrates=substrate)
    assert intake["references"] == {"corpus": 0, "canonical": 1}
    assert intake["recognisability"]["score"] == 100 and intake["memorisation"]["score"] == 100
    assert any("canonical any/known" in r for r in intake["memorisation"]["reasons"])
    assert intake["passed"] is True  # report-only by default (spec 000 v1)

    config_set(key="intake.memorisation_gated", value=True, by=None, reason="gate memorisation")
    intake = template_intake_check(template=template, substrates=substrate)
    assert intake["passed"] is False
    assert [f.split(" ", 1)[0] for f in intake["failures"]] == ["memorisation"]
    config_set(key="intake.recognisability_gated", value=True, by=None, reason="gate recognisability")
    intake = template_intake_check(template=template, substrates=substrate)
    assert sorted(f.split(" ", 1)[0] for f in intake["failures"]) == ["memorisation", "recognisability"]

    config_set(key="intake.canonical_library", value=str(tmp_path / "missing"), by=None, reason="bad path")
    with pytest.raises(ValidationFailed) as info:
        template_intake_check(template=template, substrates=substrate)
    assert info.value.code == "intake_canonical_library_missing"


def test_a_model_backed_probe_is_configured_by_dotted_path():
    template = _templates()["config-coercion"]
    files = {"app/__init__.py": "", "app/core.py": "\n".join(f"def g{i}(x):\n    return x * {i} + {i}\n"
                                                               for i in range(30))}
    RECALLED["app/core.py"] = files["app/core.py"]
    config_set(key="intake.memorisation_probe", value="challenges.services.intake.completion_probe", by=None,
               reason="use the model")
    with pytest.raises(ValidationFailed) as info:
        template_intake_check(template=template, substrates=[("app", Substrate(files, "app", None))])
    assert info.value.code == "intake_probe_invalid" and info.value.extra["field"] == "intake.completion_function"

    config_set(key="intake.completion_function", value="tests.integration.intake.helpers.recalling_model", by=None,
               reason="a stand-in model")
    intake = template_intake_check(template=template, substrates=[("app", Substrate(files, "app", None))])
    memo = intake["memorisation"]
    assert memo["score"] == 100 and memo["reasons"][0] == "app: probe closed-book-completion"
    assert "app: recalled 100% of app/core.py" in memo["reasons"]
    assert intake["probe"] == "closed-book-completion"


@pytest.mark.parametrize("path, code", [
    ("tests.integration.intake.helpers.no_such_factory", "intake_probe_invalid"),
    ("tests.integration.intake.helpers.not_a_probe_factory", "intake_probe_invalid"),
])
def test_a_broken_probe_setting_is_refused_with_a_clear_code(path, code):
    template = _templates()["config-coercion"]
    config_set(key="intake.memorisation_probe", value=path, by=None, reason="misconfigured")
    with pytest.raises(ValidationFailed) as info:
        template_intake_check(template=template, samples=1)
    assert info.value.code == code and info.value.extra["field"] == "intake.memorisation_probe"
    template.refresh_from_db()
    assert template.intake_checked_at is None


def test_settings_refuse_bad_values():
    for key, value in (("intake.rig_threshold", 101), ("intake.memorisation_probe", "not a path"),
                       ("intake.samples", 0), ("intake.memorisation_gated", "yes")):
        with pytest.raises(ValidationFailed):
            config_set(key=key, value=value, by=None, reason="bad")


def test_screening_references_changes_no_score_or_reason():
    """``intake_score`` leaves out references sharing no n-gram; the scores must equal the core's."""
    template = _templates()["booking-ledger"]
    corpus = [Reference(e.key, f"{e.title}\n{e.note}") for e in _corpus(40)]
    samples = template_samples(template=template, samples=2)
    params = intake_params()
    probe = NgramMemorisationProbe(n=params.memorisation_n)
    for index, (_, generated) in enumerate(samples):
        substrate = substrate_for_instance(generated)
        path = max(substrate.source_paths(), key=lambda p: len(substrate.files[p]))
        text = substrate.files[path]
        partial = text[: len(text) // 2]
        references = [*corpus, Reference("half", partial, "canonical", generated.language),
                      Reference("renamed", partial.replace("self", "me").replace("this", "that"), "canonical",
                                generated.language)]
        full = intake_report(substrate, references=references, probe=probe, params=params)
        fast = intake_score(substrate, references=references, recognisers=(), probe=probe, params=params)
        for axis in ("rig_confidence", "recognisability", "memorisation"):
            assert getattr(fast, axis).score == getattr(full, axis).score, (index, axis)
        assert fast.memorisation.score > 0 and fast.recognisability.score > 0
        assert set(full.memorisation.reasons) <= set(fast.memorisation.reasons)
        assert [r for r in full.recognisability.reasons if "%" in r] == \
            [r for r in fast.recognisability.reasons if "%" in r]
        assert fast.recognisability.reasons[-1].startswith(f"{len(references)} reference(s) compared, ")
        # Prose-only corpus references share nothing with code: the same zero, and a reason that says why.
        full = intake_report(substrate, references=corpus, probe=probe, params=params)
        fast = intake_score(substrate, references=corpus, recognisers=(), probe=probe, params=params)
        assert fast.memorisation.score == full.memorisation.score == 0
        assert fast.memorisation.reasons == ("probe ngram-overlap",
                                             f"{len(corpus)} reference(s) compared, 0 share a verbatim 8-gram")


def test_a_template_the_engine_cannot_generate_is_refused_and_left_unchanged():
    orphan = ChallengeTemplate.objects.create(slug="no-engine-code", title="Orphan", family="boundary",
                                              bug_class="off-by-one", spec_tier=1, languages=["python"])
    with pytest.raises(Conflict) as info:
        template_activate(template=orphan, by=None, reason="try")
    assert info.value.code == "intake_sample_failed" and info.value.extra["template"] == "no-engine-code"
    orphan.refresh_from_db()
    assert orphan.state == ChallengeTemplate.State.DRAFT and orphan.intake_checked_at is None
