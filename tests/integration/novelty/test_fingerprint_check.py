from datetime import timedelta

import pytest
from django.utils import timezone

from challenges.models import ChallengeInstance, CorpusEntry, HallOfFameEntry
from challenges.novelty import Fingerprint, ReferenceSet, Verdict, check, similarity
from challenges.services.corpus import corpus_entry_create
from challenges.services.novelty import (
    fingerprint_check,
    window_cache_reset,
    window_cache_stats,
    window_reference,
)
from core.errors import ValidationFailed
from core.models import AuditEvent
from core.services import config_set
from tests.integration.novelty.helpers import fp, instance, unrelated

pytestmark = pytest.mark.django_db

# Fingerprints chosen so their similarity to BASE falls in each band (checked below).
FLAG = unrelated(bug_type=fp()["bug_type"], solution_approach=fp()["solution_approach"], complexity_tier=3)
NOTE = unrelated(bug_type=fp()["bug_type"], complexity_tier=3)
ACCEPT = unrelated(complexity_tier=1)


def score(a, b):
    return similarity(Fingerprint.from_dict(a), Fingerprint.from_dict(b))


def test_band_fixtures_score_where_intended():
    assert score(fp(), fp()) == 1.0
    assert 0.50 <= score(FLAG, fp()) <= 0.70
    assert 0.30 <= score(NOTE, fp()) < 0.50
    assert score(ACCEPT, fp()) < 0.30


@pytest.mark.parametrize(
    ("candidate", "verdict"),
    [(fp(), Verdict.REJECT), (FLAG, Verdict.FLAG), (NOTE, Verdict.ACCEPT_WITH_NOTE), (ACCEPT, Verdict.ACCEPT)],
)
def test_each_band_against_the_window(candidate, verdict):
    stored = instance(fingerprint=fp(), created_at=timezone.now() - timedelta(days=10))
    decision = fingerprint_check(fingerprint=candidate)
    assert decision.verdict is verdict
    assert decision.nearest.source == "window" and decision.nearest.key == stored.pk
    assert decision.uniqueness == pytest.approx(1 - score(candidate, fp()))
    assert decision.nearest.contribution("bug_type").similarity == 1.0 or verdict is Verdict.ACCEPT


def test_nothing_to_compare_accepts_with_full_uniqueness():
    decision = fingerprint_check(fingerprint=fp())
    assert decision.verdict is Verdict.ACCEPT and decision.uniqueness == 1.0 and decision.matches == ()


def test_window_is_the_last_n_days_and_excludes_rejected_instances():
    now = timezone.now()
    instance(fingerprint=fp(), created_at=now - timedelta(days=91))
    instance(fingerprint=fp(), created_at=now - timedelta(days=5), state=ChallengeInstance.State.REJECTED)
    assert fingerprint_check(fingerprint=fp(), now=now).verdict is Verdict.ACCEPT
    recent = instance(fingerprint=fp(), created_at=now - timedelta(days=89))
    decision = fingerprint_check(fingerprint=fp(), now=now)
    assert decision.verdict is Verdict.REJECT and decision.nearest.key == recent.pk


def test_window_length_is_a_setting():
    now = timezone.now()
    old = instance(fingerprint=fp(), created_at=now - timedelta(days=95))
    assert fingerprint_check(fingerprint=fp(), now=now).verdict is Verdict.ACCEPT
    config_set(key="novelty.window_days", value=100, by=None, reason="test: longer window")
    decision = fingerprint_check(fingerprint=fp(), now=now)
    assert decision.verdict is Verdict.REJECT and decision.nearest.key == old.pk


def test_hall_of_fame_is_compared_whatever_its_age():
    now = timezone.now()
    famous = instance(fingerprint=fp(), created_at=now - timedelta(days=400), state=ChallengeInstance.State.RELEASED)
    assert fingerprint_check(fingerprint=FLAG, now=now).verdict is Verdict.ACCEPT
    HallOfFameEntry.objects.create(instance=famous, solves=9, rank=1, computed_at=now)
    decision = fingerprint_check(fingerprint=FLAG, now=now)
    assert decision.verdict is Verdict.FLAG
    assert (decision.nearest.source, decision.nearest.key) == ("hall_of_fame", famous.pk)


def test_corpus_above_its_threshold_rejects_regardless_of_the_window():
    corpus_entry_create(key="known-bug", category="textbook_bug_class", title="Known", note="A known pattern.",
                        fingerprint=fp(), by=None, reason="test")
    decision = fingerprint_check(fingerprint=FLAG)  # 0.57: a window match this close would only be flagged
    assert decision.verdict is Verdict.REJECT
    assert (decision.nearest.source, decision.nearest.key) == ("corpus", "known-bug")
    assert any("regardless of the window" in reason for reason in decision.reasons)
    assert fingerprint_check(fingerprint=NOTE).verdict is Verdict.ACCEPT_WITH_NOTE


def test_withdrawn_corpus_entries_are_not_compared():
    entry = corpus_entry_create(key="known-bug", category="debugging_qa", title="Known", note="A known pattern.",
                                fingerprint=fp(), by=None, reason="test")
    CorpusEntry.objects.filter(pk=entry.pk).update(active=False)
    assert fingerprint_check(fingerprint=fp()).verdict is Verdict.ACCEPT


def test_thresholds_and_weights_come_from_settings():
    instance(fingerprint=fp(), created_at=timezone.now() - timedelta(days=1))
    config_set(key="novelty.flag_from", value=0.60, by=None, reason="test")
    assert fingerprint_check(fingerprint=FLAG).verdict is Verdict.ACCEPT_WITH_NOTE
    config_set(key="novelty.weight.bug_type", value=0.0, by=None, reason="test")
    decision = fingerprint_check(fingerprint=FLAG)
    assert decision.nearest.contribution("bug_type").weight == 0.0
    assert any("scaled to sum to 1" in reason for reason in decision.reasons)


def test_exclude_instance_id_leaves_the_instance_itself_out():
    own = instance(fingerprint=fp(), created_at=timezone.now() - timedelta(days=1))
    decision = fingerprint_check(fingerprint=fp(), exclude_instance_id=own.pk)
    assert decision.verdict is Verdict.ACCEPT
    event = AuditEvent.objects.get(verb="novelty.checked")
    assert (event.target_type, event.target_id) == ("challenges.challengeinstance", str(own.pk))


def test_every_decision_is_audited_with_its_reasons():
    stored = instance(fingerprint=fp(), created_at=timezone.now() - timedelta(days=1))
    decision = fingerprint_check(fingerprint=fp())
    event = AuditEvent.objects.get(verb="novelty.checked")
    assert event.after["verdict"] == "reject" and event.after["nearest"]["key"] == stored.pk
    assert event.reason == "; ".join(decision.reasons) and "reject threshold" in event.reason


@pytest.mark.parametrize(
    ("data", "field", "code"),
    [
        ({**fp(), "difficulty": 2}, "difficulty", "unknown_field"),
        (fp(complexity_tier=6), "complexity_tier", "tier_out_of_range"),
        (fp(bug_type="  "), "bug_type", "empty_field"),
        (fp(tech_stack="python"), "tech_stack", "invalid_type"),
        ({k: v for k, v in fp().items() if k != "domain"}, "domain", "missing_field"),
        ("not a mapping", "fingerprint", "not_a_mapping"),
    ],
)
def test_bad_fingerprints_are_refused_naming_the_field(data, field, code):
    with pytest.raises(ValidationFailed) as caught:
        fingerprint_check(fingerprint=data)
    assert caught.value.code == code and caught.value.extra["field"] == field
    assert field in caught.value.message
    assert not AuditEvent.objects.filter(verb="novelty.checked").exists()


def test_cached_sets_equal_a_fresh_build_and_a_brute_force_reference():
    now = timezone.now()
    variants = [fp(), FLAG, NOTE, ACCEPT, fp(domain="tide tables"), fp(complexity_tier=1),
                unrelated(key_concepts=["pagination"]), fp(tech_stack=["rust"])]
    rows = [instance(fingerprint=v, created_at=now - timedelta(days=3 + i)) for i, v in enumerate(variants)]
    old = instance(fingerprint=fp(domain="harbour dues"), created_at=now - timedelta(days=300))
    corpus_entry_create(key="b-entry", category="debugging_qa", title="B", note="Same as A.", fingerprint=NOTE,
                        by=None, reason="test")
    fingerprint_check(fingerprint=fp(), now=now)  # builds the caches
    builds = window_cache_stats()["builds"]
    # Changes after the build: new rows, a rejection, an expiry, a row with an unusable
    # fingerprint, a new hall-of-fame entry, a corpus entry that ties with another and one withdrawn.
    rows.append(instance(fingerprint=fp(architecture="plugin host"), created_at=now - timedelta(days=1)))
    rows.append(instance(fingerprint=fp(bug_location="ledger"), created_at=now - timedelta(hours=1)))
    ChallengeInstance.objects.filter(pk=rows[0].pk).update(state=ChallengeInstance.State.REJECTED)
    ChallengeInstance.objects.filter(pk=rows[1].pk).update(created_at=now - timedelta(days=200))
    instance(fingerprint={"bug_type": "legacy row"}, created_at=now - timedelta(days=2))
    HallOfFameEntry.objects.create(instance=old, solves=4, rank=1, computed_at=now)
    corpus_entry_create(key="a-entry", category="debugging_qa", title="A", note="Same as B.", fingerprint=NOTE,
                        by=None, reason="test")
    withdrawn = corpus_entry_create(key="c-entry", category="real_world_bug", title="C", note="Gone.",
                                    fingerprint=FLAG, by=None, reason="test")
    CorpusEntry.objects.filter(pk=withdrawn.pk).update(active=False)
    later = now + timedelta(hours=2)

    for candidate in (fp(), FLAG, NOTE, fp(domain="harbour dues"), unrelated()):
        cached = fingerprint_check(fingerprint=candidate, now=later)
        assert window_cache_stats()["builds"] == builds, "the incremental path must not rebuild"
        window_cache_reset()
        fresh = fingerprint_check(fingerprint=candidate, now=later)
        assert cached == fresh
        sets = window_reference(now=later)
        expected = check(Fingerprint.from_dict(candidate), ReferenceSet(sets["window"]),
                         ReferenceSet(sets["hall_of_fame"]), ReferenceSet(sets["corpus"]), k=5)
        assert cached == expected
        builds = window_cache_stats()["builds"]
    window_keys = {m.key for m in cached.matches if m.source == "window"}
    assert rows[0].pk not in window_keys and rows[1].pk not in window_keys
    corpus_keys = [m.key for m in cached.matches if m.source == "corpus"]
    assert corpus_keys == ["a-entry", "b-entry"]  # equal scores: key order, as the reference


def test_warm_checks_use_a_constant_number_of_queries():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def warm_queries() -> int:
        fingerprint_check(fingerprint=fp())
        with CaptureQueriesContext(connection) as captured:
            fingerprint_check(fingerprint=fp())
        return len(captured)

    now = timezone.now()
    for day in range(3):
        instance(fingerprint=fp(domain=f"domain {day}"), created_at=now - timedelta(days=day + 1))
    few = warm_queries()
    for day in range(30):
        instance(fingerprint=fp(domain=f"port {day}"), created_at=now - timedelta(days=day + 1))
    assert warm_queries() == few
