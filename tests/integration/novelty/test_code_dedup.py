"""Code-level dedup in the Django layer: stored signatures, the window and hall of fame,
enforcement modes, the review queue, the admin and the backfill."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, User
from django.core.management import call_command
from django.utils import timezone

from challenges.engine import draw, generate
from challenges.models import ChallengeInstance, FingerprintReview, HallOfFameEntry, InstanceCodeSignature
from challenges.novelty import Verdict
from challenges.services.code_dedup import (
    code_dedup_check,
    code_dedup_record,
    code_signature_of,
    code_signature_store,
    code_window_stats,
)
from challenges.services.novelty import fingerprint_check, fingerprint_review_open
from core.errors import ValidationFailed
from core.models import AuditEvent
from core.roles import VIEWER
from core.services import config_set
from tests.instance_factory import make_instance
from tests.integration.novelty.helpers import instance, unrelated

pytestmark = pytest.mark.django_db


def _files(slug: str, seed: int, *, rewrite: bool = True) -> dict[str, str]:
    return generate(draw(slug, "python", random.Random(seed)), rewrite=rewrite).files


@pytest.fixture(scope="module")
def siblings():
    """An instance, a near copy of it (the same draw without its per-draw rewrites: the same
    code in other forms, ~0.8 alike; two draws of one template are ~0.4 alike now), and an
    instance of another template."""
    return _files("job-scheduler", 1), _files("job-scheduler", 1, rewrite=False), _files("rate-limiter", 3)


def _signed(files, *, days_ago: float = 1, state=ChallengeInstance.State.RELEASED):
    row = instance(fingerprint=unrelated(), created_at=timezone.now() - timedelta(days=days_ago), state=state)
    code_signature_store(instance=row, signature=code_signature_of(files))
    return row


def _set(key, value):
    config_set(key=key, value=value, by=None, reason="test")


def test_a_sibling_is_found_named_and_its_shared_code_located(siblings):
    first, second, other = siblings
    earlier = _signed(first)
    _signed(other)
    decision = code_dedup_check(signature=code_signature_of(second))
    top = decision.nearest
    assert top.key == earlier.pk and top.source == "window"
    assert top.score > 0.5 and decision.verdict is Verdict.REJECT
    assert str(earlier) in decision.reasons[0]
    assert "above the code reject threshold 0.50" in decision.reasons[0]
    # The default enforcement only records the verdict, and says so.
    assert decision.effective is Verdict.ACCEPT and decision.enforcement == "observe"
    assert "novelty.code.enforcement" in decision.reasons[-1]
    # Shared regions point at real source lines of both instances.
    assert decision.regions
    for region in decision.regions:
        assert region.path in second and region.other_path in first
        assert 1 <= region.start <= region.end <= second[region.path].count("\n") + 1
        assert 1 <= region.other_start <= region.other_end <= first[region.other_path].count("\n") + 1
        assert "tests/" not in region.path


@pytest.mark.parametrize(("mode", "effective"), [("enforce", Verdict.REJECT), ("review", Verdict.FLAG),
                                                 ("observe", Verdict.ACCEPT)])
def test_staff_choose_what_a_code_verdict_does(siblings, mode, effective):
    _signed(siblings[0])
    _set("novelty.code.enforcement", mode)
    decision = code_dedup_check(signature=code_signature_of(siblings[1]))
    assert decision.verdict is Verdict.REJECT and decision.effective is effective


def test_thresholds_are_staff_settings(siblings):
    _signed(siblings[0])
    _set("novelty.code.enforcement", "enforce")
    _set("novelty.code.reject_above", 0.99)
    _set("novelty.code.flag_from", 0.30)
    decision = code_dedup_check(signature=code_signature_of(siblings[1]))
    assert decision.verdict is Verdict.FLAG and decision.effective is Verdict.FLAG
    assert "code review band 0.30-0.99" in decision.reasons[0]
    with pytest.raises(ValidationFailed):
        _set("novelty.code.enforcement", "sometimes")


def test_the_window_leaves_out_old_and_rejected_instances_and_follows_changes(siblings):
    first, second, _ = siblings
    old = _signed(first, days_ago=120)
    refused = _signed(first, state=ChallengeInstance.State.REJECTED)
    candidate = code_signature_of(second)
    assert code_dedup_check(signature=candidate).nearest is None
    recent = _signed(first)
    assert code_dedup_check(signature=candidate).nearest.key == recent.pk
    ChallengeInstance.objects.filter(pk=recent.pk).update(state=ChallengeInstance.State.REJECTED)
    assert code_dedup_check(signature=candidate).nearest is None
    assert code_window_stats()["builds"] >= 1 and {old.pk, refused.pk}.isdisjoint({recent.pk})
    _set("novelty.window_days", 200)
    assert code_dedup_check(signature=candidate).nearest.key == old.pk


def test_the_hall_of_fame_is_compared_beyond_the_window_and_self_is_excluded(siblings):
    famous = _signed(siblings[0], days_ago=300)
    HallOfFameEntry.objects.create(instance=famous, solves=9, rank=1, computed_at=timezone.now())
    decision = code_dedup_check(signature=code_signature_of(siblings[1]))
    assert (decision.nearest.key, decision.nearest.source) == (famous.pk, "hall_of_fame")
    assert "hall-of-fame challenge" in decision.reasons[0]
    assert code_dedup_check(signature=code_signature_of(siblings[0]), exclude_instance_id=famous.pk).nearest is None


def test_a_code_flag_opens_a_review_that_shows_the_shared_code(client, siblings):
    earlier = _signed(siblings[0])
    candidate = instance(fingerprint=unrelated(domain="other"))
    signature = code_signature_of(siblings[1])
    code_signature_store(instance=candidate, signature=signature)
    _set("novelty.code.enforcement", "review")
    code = code_dedup_check(signature=signature, exclude_instance_id=candidate.pk)
    fingerprint = fingerprint_check(fingerprint=candidate.fingerprint, exclude_instance_id=candidate.pk)
    assert fingerprint.verdict is not Verdict.FLAG and code.effective is Verdict.FLAG
    code_dedup_record(instance=candidate, decision=code)
    review = fingerprint_review_open(instance=candidate, decision=fingerprint, code=code)
    assert review.state == FingerprintReview.State.PENDING
    assert review.code["matches"][0]["key"] == earlier.pk and review.code["regions"]
    assert any(reason.startswith("code: code structure") for reason in review.reasons)
    assert AuditEvent.objects.filter(verb="novelty.code_checked", target_id=str(candidate.pk)).exists()

    user = User.objects.create_user("viewer", password="x" * 12, is_staff=True)
    user.groups.add(Group.objects.get(name=VIEWER))
    client.force_login(user)
    page = client.get(f"/admin/challenges/fingerprintreview/{review.pk}/change/").content.decode()
    assert 'class="code-regions"' in page and str(earlier) in page
    region = review.code["regions"][0]
    assert f"<td>{region['other_path']}</td><td>{region['other_start']}&ndash;{region['other_end']}</td>" in page
    page = client.get(f"/admin/challenges/challengeinstance/{candidate.pk}/change/").content.decode()
    assert 'class="code-matches"' in page and "Show the shared code side by side" in page
    # These rows have no stored workspace; the side-by-side page says so rather than failing.
    side = client.get(f"/admin/challenges/challengeinstance/{candidate.pk}/code-dedup/")
    assert side.status_code == 200 and "(not readable)" in side.content.decode()


def test_a_review_needs_a_flag_from_one_of_the_checks(siblings):
    candidate = instance(fingerprint=unrelated())
    code = code_dedup_check(signature=code_signature_of(siblings[2]))
    fingerprint = fingerprint_check(fingerprint=candidate.fingerprint)
    with pytest.raises(ValidationFailed) as caught:
        fingerprint_review_open(instance=candidate, decision=fingerprint, code=code)
    assert caught.value.code == "review_not_flagged"
    assert not FingerprintReview.objects.exists()


def test_backfill_signs_stored_workspaces_once_and_can_record_decisions(client):
    first = make_instance()
    second = make_instance()
    out = call_command("code_dedup_backfill", "--check", "--json")
    assert out is None
    rows = {row.instance_id: row for row in InstanceCodeSignature.objects.all()}
    assert set(rows) == {first.pk, second.pk}
    assert rows[first.pk].data["files"] == ["rooms/__init__.py", "rooms/ledger.py", "rooms/service.py"]
    first.refresh_from_db()
    second.refresh_from_db()
    # The second is the same code as the first; the first had nothing before it.
    assert first.dedup["code"]["matches"] == []
    assert second.dedup["code"]["matches"][0]["key"] == first.pk
    assert second.dedup["code"]["score"] == 1.0 and second.dedup["code"]["verdict"] == "reject"
    assert AuditEvent.objects.filter(verb="novelty.code_backfilled").count() == 1
    call_command("code_dedup_backfill")
    assert AuditEvent.objects.filter(verb="novelty.code_backfilled").count() == 1, "nothing left to sign"
    # The side-by-side page shows the real shared code from both workspaces.
    user = User.objects.create_superuser("root", password="x" * 12)
    client.force_login(user)
    page = client.get(f"/admin/challenges/challengeinstance/{second.pk}/code-dedup/").content.decode()
    assert "class Calendar" in page and page.count("def book(self, start, end):") == 2


def test_the_dashboard_says_what_code_dedup_would_do_and_what_is_unsigned(client, siblings):
    _signed(siblings[0])
    candidate = _signed(siblings[1])
    code_dedup_record(instance=candidate, decision=code_dedup_check(
        signature=code_signature_of(siblings[1]), exclude_instance_id=candidate.pk))
    instance(fingerprint=unrelated())  # made before code dedup: no signature
    user = User.objects.create_user("viewer", password="x" * 12, is_staff=True)
    user.groups.add(Group.objects.get(name=VIEWER))
    client.force_login(user)
    page = " ".join(client.get("/admin/").content.decode().split())
    assert "Code-level dedup" in page
    assert "Enforcement <strong>observe</strong>: reject above 0.50, review from 0.35" in page
    assert "3 instances by their code: <strong>1</strong> above the reject threshold, 0 in the review band" in page
    assert "Not enforced: these were released." in page
    assert "<strong>1 instance without a code signature</strong>" in page
