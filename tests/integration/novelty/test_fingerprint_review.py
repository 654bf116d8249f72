from datetime import timedelta

import pytest
from django.contrib.auth.models import Group, User
from django.utils import timezone

from challenges.models import ChallengeInstance, FingerprintReview
from challenges.services.corpus import corpus_entry_create
from challenges.services.novelty import fingerprint_check, fingerprint_review_decide, fingerprint_review_open
from core.errors import Conflict, PermissionDenied, ValidationFailed
from core.models import AuditEvent
from core.roles import INTEGRITY_LEAD, VIEWER
from tests.integration.novelty.helpers import fp, instance, unrelated

pytestmark = pytest.mark.django_db

FLAG = unrelated(bug_type=fp()["bug_type"], solution_approach=fp()["solution_approach"], complexity_tier=3)


def staff(role: str) -> User:
    user = User.objects.create_user(f"user-{role}".replace(" ", "-").lower(), password="x" * 12, is_staff=True)
    user.groups.add(Group.objects.get(name=role))
    return User.objects.get(pk=user.pk)  # fresh permission cache


@pytest.fixture
def flagged():
    earlier = instance(fingerprint=fp(), created_at=timezone.now() - timedelta(days=3),
                       state=ChallengeInstance.State.RELEASED)
    candidate = instance(fingerprint=FLAG)
    decision = fingerprint_check(fingerprint=FLAG, exclude_instance_id=candidate.pk)
    return earlier, candidate, decision


def test_open_records_matches_with_per_field_contributions(flagged):
    earlier, candidate, decision = flagged
    review = fingerprint_review_open(instance=candidate, decision=decision)
    assert review.state == FingerprintReview.State.PENDING
    top = review.matches[0]
    assert top["source"] == "window" and top["key"] == earlier.pk and top["label"] == str(earlier)
    fields = {f["field"]: f for f in top["fields"]}
    assert fields["bug_type"]["contribution"] == pytest.approx(0.30)
    assert fields["solution_approach"]["contribution"] == pytest.approx(0.25)
    assert fields["domain"]["similarity"] == 0.0 and "bug_location" in fields
    assert sum(f["contribution"] for f in top["fields"]) == pytest.approx(top["score"])
    event = AuditEvent.objects.get(verb="fingerprint_review.opened")
    assert event.target_id == str(review.pk) and "manual-review band" in event.reason


def test_open_is_idempotent_while_pending(flagged):
    _, candidate, decision = flagged
    first = fingerprint_review_open(instance=candidate, decision=decision)
    assert fingerprint_review_open(instance=candidate, decision=decision) == first
    assert FingerprintReview.objects.count() == 1


def test_only_flagged_decisions_are_reviewed():
    candidate = instance(fingerprint=fp())
    decision = fingerprint_check(fingerprint=fp(), exclude_instance_id=candidate.pk)
    with pytest.raises(ValidationFailed) as caught:
        fingerprint_review_open(instance=candidate, decision=decision)
    assert caught.value.code == "review_not_flagged"
    assert not FingerprintReview.objects.exists()


def test_corpus_matches_are_labelled_by_title(flagged):
    corpus_entry_create(key="near-miss", category="debugging_qa", title="Near miss", note="Similar enough.",
                        fingerprint=unrelated(bug_type="stale cache entry", solution_approach="retry"), by=None,
                        reason="test")
    _, candidate, _ = flagged
    decision = fingerprint_check(fingerprint=FLAG, exclude_instance_id=candidate.pk)
    review = fingerprint_review_open(instance=candidate, decision=decision)
    labels = {m["key"]: m["label"] for m in review.matches}
    assert labels["near-miss"] == "Near miss (Debugging Q&A pattern)"


def test_approve_releases_the_instance_with_audit_events(flagged):
    _, candidate, decision = flagged
    review = fingerprint_review_open(instance=candidate, decision=decision)
    lead = staff(INTEGRITY_LEAD)
    fingerprint_review_decide(review=review, approve=True, by=lead, reason="different enough in practice")
    review.refresh_from_db()
    candidate.refresh_from_db()
    assert review.state == FingerprintReview.State.APPROVED and review.decided_by == lead
    assert candidate.state == ChallengeInstance.State.RELEASED and candidate.released_at is not None
    event = AuditEvent.objects.get(verb="fingerprint_review.approved")
    assert event.actor == lead and event.reason == "different enough in practice"
    assert AuditEvent.objects.filter(verb="instance.released", target_id=str(candidate.pk)).exists()


def test_reject_marks_the_instance_rejected(flagged):
    _, candidate, decision = flagged
    review = fingerprint_review_open(instance=candidate, decision=decision)
    lead = staff(INTEGRITY_LEAD)
    fingerprint_review_decide(review=review, approve=False, by=lead, reason="too close")
    candidate.refresh_from_db()
    assert candidate.state == ChallengeInstance.State.REJECTED
    assert FingerprintReview.objects.get().state == FingerprintReview.State.REJECTED
    assert AuditEvent.objects.filter(verb="instance.rejected", reason__contains="too close").exists()
    with pytest.raises(Conflict):
        fingerprint_review_decide(review=review, approve=True, by=lead, reason="changed my mind")
    candidate.refresh_from_db()
    assert candidate.state == ChallengeInstance.State.REJECTED


def test_decide_needs_permission_and_a_reason_and_changes_nothing_otherwise(flagged):
    _, candidate, decision = flagged
    review = fingerprint_review_open(instance=candidate, decision=decision)
    with pytest.raises(PermissionDenied):
        fingerprint_review_decide(review=review, approve=True, by=staff(VIEWER), reason="looks fine")
    with pytest.raises(ValidationFailed):
        fingerprint_review_decide(review=review, approve=True, by=staff(INTEGRITY_LEAD), reason=" ")
    review.refresh_from_db()
    candidate.refresh_from_db()
    assert review.state == FingerprintReview.State.PENDING and candidate.state == ChallengeInstance.State.GENERATED
    assert not AuditEvent.objects.filter(verb__startswith="fingerprint_review.a").exists()


def test_approve_that_cannot_release_rolls_back(flagged):
    _, candidate, decision = flagged
    ChallengeInstance.objects.filter(pk=candidate.pk).update(gates={"passed": False})
    review = fingerprint_review_open(instance=candidate, decision=decision)
    with pytest.raises(Conflict):
        fingerprint_review_decide(review=review, approve=True, by=staff(INTEGRITY_LEAD), reason="ok")
    review.refresh_from_db()
    assert review.state == FingerprintReview.State.PENDING
