"""Measured difficulty: recorded by the pipeline, checked against the tier's floor (observe or
enforce), backfilled from the sealed workspace, and shown in the admin and calibration report."""

import json

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.urls import reverse

from challenges.models import ChallengeInstance, GenerationAttempt
from challenges.services.difficulty import instance_difficulty_backfill
from challenges.services.generation import instance_generate, template_sync
from core.models import AuditEvent
from core.services import config_set
from tests.instance_factory import make_instance

pytestmark = pytest.mark.django_db

MEASURES = ("source_lines", "source_files", "test_files", "fault_files", "causal_distance", "fault_distances",
            "entry_modules", "grep_rank", "grep_share", "grep_words", "visible_failing")


def _json(capsys):
    return json.loads(capsys.readouterr().out.strip().splitlines()[-1])


def _viewer(client):
    user = User.objects.create_user("viewer", password="x" * 12, is_staff=True)
    user.groups.add(Group.objects.get(name="Viewer"))
    client.force_login(user)
    return user


@pytest.fixture
def booking():
    return {t.slug: t for t in template_sync(activate=True)}["booking-ledger"]


@pytest.mark.slow
def test_pipeline_records_the_profile_and_observes_a_shortfall(booking, capsys):
    config_set(key="difficulty.min_source_lines.1", value=100_000, by=None, reason="a floor no project meets")
    result = instance_generate(template=booking, language="python")
    instance = result.instance
    # Observe (the default): released despite the shortfall, which is recorded with its reason.
    assert instance is not None and instance.state == ChallengeInstance.State.RELEASED
    profile = instance.difficulty_profile
    assert profile["source_lines"] == instance.difficulty["source_lines"]
    assert profile["source_files"] == instance.difficulty["source_files"]
    assert profile["fault_files"] and profile["causal_distance"] is not None and profile["entry_modules"]
    assert 1 <= profile["grep_rank"] <= profile["source_files"] and profile["grep_words"] > 0
    # Read from the visible gate's record: below tier 3 a visible test may fail because of the bug.
    assert profile["visible_failing"] is (instance.difficulty["visible_failures_on_bug"] > 0)
    visible = next(g for g in instance.gates["results"] if g["name"] == "visible")
    assert profile["visible_failing"] is bool(visible["details"]["failing_on_bug"])
    check = profile["check"]
    assert check["tier"] == 1 and check["enforcement"] == "observe" and check["passed"] is False
    assert check["floor"] == {"min_source_lines": 100_000, "min_source_files": 3, "min_causal_distance": 0}
    assert check["shortfalls"] == [f"{profile['source_lines']} lines of non-test source; tier 1 asks for at least "
                                   "100000"]
    released = result.attempts[-1]
    assert released.outcome == GenerationAttempt.Outcome.RELEASED
    assert "difficulty observed, not enforced: below the tier-1 difficulty floor" in released.reason

    # The backfill measures the same figures from the sealed workspace, secrets and gate record.
    recorded = {k: profile[k] for k in MEASURES}
    ChallengeInstance.objects.filter(pk=instance.pk).update(difficulty_profile={})
    call_command("difficulty_backfill", "--json")
    assert _json(capsys) == {"recorded": [instance.pk], "below_floor": [instance.pk], "failed": {}}
    instance.refresh_from_db()
    assert {k: instance.difficulty_profile[k] for k in MEASURES} == recorded
    assert AuditEvent.objects.filter(verb="instance.difficulty_measured", target_id=str(instance.pk)).count() == 1


@pytest.mark.slow
def test_enforce_refuses_an_instance_below_its_floor_and_changes_nothing(booking):
    config_set(key="difficulty.enforcement", value="enforce", by=None, reason="refuse small projects")
    config_set(key="difficulty.min_source_files.1", value=500, by=None, reason="a floor no project meets")
    config_set(key="generation.max_passes", value=1, by=None, reason="one pass is enough to see the refusal")
    result = instance_generate(template=booking, language="python")
    assert result.instance is None
    assert not ChallengeInstance.objects.exists()
    (attempt,) = result.attempts
    assert attempt.outcome == GenerationAttempt.Outcome.GATE_FAILED
    # Size needs no test run: the draw is refused before the release gates spend sandbox time on it.
    assert attempt.reason.startswith("difficulty (before the release gates): below the tier-1 difficulty floor: ")
    assert "source files; tier 1 asks for at least 500" in attempt.reason


@pytest.mark.slow
def test_enforce_refuses_a_fault_too_near_the_failing_tests_after_the_gates(booking):
    config_set(key="difficulty.enforcement", value="enforce", by=None, reason="refuse shallow faults")
    config_set(key="difficulty.min_causal_distance.1", value=50, by=None, reason="a distance no project has")
    config_set(key="generation.max_passes", value=1, by=None, reason="one pass is enough to see the refusal")
    result = instance_generate(template=booking, language="python")
    assert result.instance is None and not ChallengeInstance.objects.exists()
    (attempt,) = result.attempts
    assert attempt.outcome == GenerationAttempt.Outcome.GATE_FAILED
    assert attempt.reason.startswith("difficulty: below the tier-1 difficulty floor: ")
    assert attempt.reason.endswith("tier 1 asks for at least 50")
    assert "lines of non-test source" not in attempt.reason  # the size floor is met


def test_backfill_measures_a_stored_instance_against_its_tier():
    instance = make_instance(tier=2)
    assert instance.difficulty_profile == {}
    record = instance_difficulty_backfill(instance=instance)
    # rooms/ledger.py and rooms/service.py; the empty package marker is not source.
    assert record["source_files"] == 2 and record["test_files"] == 2
    assert record["fault_files"] == ["rooms/ledger.py"]
    # The hidden tests import the faulty module themselves.
    assert record["causal_distance"] == 0 and record["entry_modules"] == ["rooms/ledger.py", "rooms/service.py"]
    assert record["grep_rank"] is None  # no statement to grep with
    assert record["visible_failing"] is None  # no visible-gate record to read it from
    assert record["check"]["shortfalls"] == [
        f"{record['source_lines']} lines of non-test source; tier 2 asks for at least 500",
        "2 source files; tier 2 asks for at least 8",
        "the failing tests import the faulty module directly; tier 2 asks for at least 1",
    ]
    instance.refresh_from_db()
    assert instance.difficulty_profile == record


def test_backfill_command_skips_measured_instances_unless_asked(capsys):
    instance = make_instance(tier=2)
    call_command("difficulty_backfill", "--json")
    assert _json(capsys)["recorded"] == [instance.pk]
    call_command("difficulty_backfill", "--json")
    assert _json(capsys) == {"recorded": [], "below_floor": [], "failed": {}}
    config_set(key="difficulty.min_source_lines.2", value=1, by=None, reason="lower floor")
    config_set(key="difficulty.min_source_files.2", value=1, by=None, reason="lower floor")
    config_set(key="difficulty.min_causal_distance.2", value=0, by=None, reason="lower floor")
    call_command("difficulty_backfill", "--all", "--json")
    assert _json(capsys) == {"recorded": [instance.pk], "below_floor": [], "failed": {}}
    instance.refresh_from_db()
    assert instance.difficulty_profile["check"]["passed"] is True


def test_admin_shows_the_difficulty_fieldset_with_figures_and_reasons(client):
    measured, unmeasured = make_instance(tier=2), make_instance(tier=2, slug="rooms-other")
    instance_difficulty_backfill(instance=measured)
    _viewer(client)
    page = client.get(reverse("admin:challenges_challengeinstance_change", args=[measured.pk])).content.decode()
    assert 'class="fieldset-heading">Difficulty</h2>' in page
    assert "falls short" in page and "(recorded, not refused)" in page
    assert "2 source files; tier 2 asks for at least 8" in page
    assert "rooms/ledger.py (0)" in page
    empty = client.get(reverse("admin:challenges_challengeinstance_change", args=[unmeasured.pk])).content.decode()
    assert "Not measured yet" in empty and "difficulty_backfill" in empty


def test_calibration_report_shows_mean_size_per_tier(client, capsys):
    for slug in ("rooms-a", "rooms-b"):
        instance_difficulty_backfill(instance=make_instance(tier=2, slug=slug))
    lines = ChallengeInstance.objects.first().difficulty_profile["source_lines"]
    call_command("calibration_report", "--json")
    tiers = {row["tier"]: row for row in _json(capsys)["tiers"]}
    size = tiers[2]["size"]
    assert size["instances"] == 2 and size["below_floor"] == 2
    assert size["mean"]["source_lines"] == lines and size["mean"]["source_files"] == 2
    assert size["mean"]["causal_distance"] == 0
    assert "size" not in tiers[1]
    call_command("calibration_report")
    text = capsys.readouterr().out
    assert f"{float(lines):.1f}" in text

    _viewer(client)
    page = client.get(reverse("admin:challenges_calibration_overview")).content.decode()
    assert "mean source lines" in page and "no measured instance" in page


def test_per_tier_figures_are_read_in_one_query(django_assert_num_queries):
    from challenges.selectors.difficulty import instance_difficulty_by_tier

    for slug, tier in (("rooms-a", 2), ("rooms-b", 3), ("rooms-c", 3)):
        instance_difficulty_backfill(instance=make_instance(tier=tier, slug=slug))
    rejected = make_instance(tier=3, slug="rooms-d", release=False)
    instance_difficulty_backfill(instance=rejected)
    ChallengeInstance.objects.filter(pk=rejected.pk).update(state=ChallengeInstance.State.REJECTED)
    with django_assert_num_queries(1):
        figures = instance_difficulty_by_tier()
    assert {tier: row["instances"] for tier, row in figures.items()} == {2: 1, 3: 2}
