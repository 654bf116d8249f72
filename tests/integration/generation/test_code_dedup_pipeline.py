"""Code-level dedup inside the real generation pipeline (engine, gates, audit, storage)."""

import pytest

from challenges.models import ChallengeInstance, GenerationAttempt, InstanceCodeSignature
from challenges.services.code_dedup import code_signature_backfill, code_window_reset
from challenges.services.generation import instance_generate, template_sync
from core.services import config_set

pytestmark = [pytest.mark.django_db, pytest.mark.slow]


@pytest.fixture
def template():
    code_window_reset()
    # The metadata fingerprint is kept out of the way: these tests are about the code.
    for key, value in (("novelty.note_from", 1.0), ("novelty.flag_from", 1.0), ("novelty.reject_above", 1.0)):
        config_set(key=key, value=value, by=None, reason="isolate code dedup")
    yield {t.slug: t for t in template_sync(activate=True)}["booking-ledger"]
    code_window_reset()


def test_observed_code_similarity_is_recorded_and_generation_goes_on(template):
    # Siblings share ~0.35 of their structure now; thresholds low enough that they would collide.
    config_set(key="novelty.code.flag_from", value=0.05, by=None, reason="short test")
    config_set(key="novelty.code.reject_above", value=0.1, by=None, reason="short test")
    first = instance_generate(template=template, language="python").instance
    second = instance_generate(template=template, language="python").instance
    assert first.state == second.state == ChallengeInstance.State.RELEASED
    assert InstanceCodeSignature.objects.filter(instance__in=[first, second]).count() == 2
    code = second.dedup["code"]
    assert code["verdict"] == "reject" and code["effective"] == "accept" and code["enforcement"] == "observe"
    assert code["matches"][0]["key"] == first.pk and code["regions"]
    released = GenerationAttempt.objects.get(instance=second)
    assert "code similarity" in released.reason and "recorded only" in released.reason
    second.refresh_from_db()
    assert "code similarity" in second.state_reason
    # The backfill signs the stored workspace; it must agree with what the pipeline signed.
    signed = dict(InstanceCodeSignature.objects.values_list("instance_id", "data"))
    assert code_signature_backfill(redo=True)["signed"] == 2
    assert dict(InstanceCodeSignature.objects.values_list("instance_id", "data")) == signed


def test_enforced_code_dedup_redraws_and_names_the_earlier_instance(template):
    first = instance_generate(template=template, language="python").instance
    config_set(key="novelty.code.enforcement", value="enforce", by=None, reason="enforce")
    config_set(key="generation.max_collisions", value=2, by=None, reason="short test")
    # Two draws of one template now share ~0.35 of their structure (components, rewrites):
    # staff lower the thresholds so the second draw collides with the first.
    config_set(key="novelty.code.flag_from", value=0.05, by=None, reason="short test")
    config_set(key="novelty.code.reject_above", value=0.1, by=None, reason="short test")
    second = instance_generate(template=template, language="python")
    assert second.instance is None
    assert second.reason == "2 consecutive dedup collisions on booking-ledger"
    assert [a.outcome for a in second.attempts] == [GenerationAttempt.Outcome.COLLISION] * 2
    assert "code: code structure" in second.attempts[0].reason
    assert str(first) in second.attempts[0].reason
    assert "fingerprint:" not in second.attempts[0].reason
