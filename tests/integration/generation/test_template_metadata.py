"""One source of truth for template metadata: sync writes the engine's fields only; staff's
tier override survives every sync and the next generated instance carries it."""

import pytest

from challenges.models import ChallengeInstance, ChallengeTemplate
from challenges.services.generation import instance_generate, template_sync
from challenges.services.rotation import template_set_tier
from core.errors import Conflict, ValidationFailed
from core.models import AuditEvent

pytestmark = pytest.mark.django_db


@pytest.fixture
def templates():
    return {t.slug: t for t in template_sync(activate=True)}


def _other_tier(tier: int) -> int:
    return tier + 1 if tier < 5 else tier - 1


def test_sync_after_a_staff_tier_change_keeps_it(templates):
    template = templates["booking-ledger"]
    spec = template.spec_tier
    assert template.tier == spec and template.tier_override is None
    wanted = _other_tier(spec)
    template_set_tier(template=template, tier=wanted, by=None, reason="calibration: solved too often")
    template_sync()
    template.refresh_from_db()
    assert (template.tier, template.tier_override, template.spec_tier) == (wanted, wanted, spec)
    assert not AuditEvent.objects.filter(verb="template.synced").exists()
    event = AuditEvent.objects.get(verb="template.tier_changed", target_id=str(template.pk))
    assert event.before == {"tier": spec, "tier_override": None}
    assert event.after == {"tier": wanted, "tier_override": wanted}
    assert event.reason == "calibration: solved too often"


def test_sync_rewrites_the_spec_tier_but_the_override_still_rules(templates):
    template = templates["booking-ledger"]
    spec = template.spec_tier
    template_set_tier(template=template, tier=_other_tier(spec), by=None, reason="measured")
    ChallengeTemplate.objects.filter(pk=template.pk).update(spec_tier=_other_tier(_other_tier(spec)))
    template_sync()
    template.refresh_from_db()
    assert template.spec_tier == spec
    assert template.tier == _other_tier(spec)
    synced = AuditEvent.objects.get(verb="template.synced", target_id=str(template.pk))
    assert synced.after == {"spec_tier": spec}


def test_clearing_the_override_returns_to_the_spec_tier(templates):
    template = templates["booking-ledger"]
    spec = template.spec_tier
    template_set_tier(template=template, tier=_other_tier(spec), by=None, reason="measured")
    template = template_set_tier(template=template, tier=None, by=None, reason="recalibrated")
    assert (template.tier, template.tier_override) == (spec, None)


def test_bad_or_unchanged_tiers_are_refused_and_change_nothing(templates):
    template = templates["booking-ledger"]
    for bad in (0, 6, "3", True):
        with pytest.raises(ValidationFailed) as info:
            template_set_tier(template=template, tier=bad, by=None, reason="x")
        assert info.value.code == "tier_invalid"
    with pytest.raises(ValidationFailed):
        template_set_tier(template=template, tier=2, by=None, reason="  ")
    with pytest.raises(Conflict):
        template_set_tier(template=template, tier=None, by=None, reason="nothing to clear")
    template.refresh_from_db()
    assert template.tier_override is None
    assert not AuditEvent.objects.filter(verb="template.tier_changed").exists()


@pytest.mark.slow
def test_the_next_generated_instance_carries_the_staff_tier(templates):
    template = templates["booking-ledger"]
    stale = ChallengeTemplate.objects.get(pk=template.pk)
    wanted = _other_tier(template.spec_tier)
    template_set_tier(template=template, tier=wanted, by=None, reason="calibration says harder")
    template_sync()
    # The run holds the object it loaded before the promotion: the tier is read fresh when the instance is stored.
    instance = instance_generate(template=stale, language="python").instance
    assert instance is not None and instance.state == ChallengeInstance.State.RELEASED
    assert instance.tier == wanted
    assert ChallengeInstance.objects.get(pk=instance.pk).tier == wanted


def _login(client, role):
    from django.contrib.auth.models import Group, User

    user = User.objects.create_user(role.lower(), password="x" * 12, is_staff=True)
    user.groups.add(Group.objects.get(name=role))
    client.force_login(user)
    return user


def test_operator_sets_the_tier_in_the_admin_with_a_reason_and_a_viewer_cannot(client, templates):
    from core.roles import OPERATOR, VIEWER

    template = templates["booking-ledger"]
    wanted = _other_tier(template.spec_tier)
    viewer = _login(client, VIEWER)
    client.post("/admin/challenges/challengetemplate/", {"action": "set_tier", "_selected_action": [template.pk],
                                                         "apply": "1", "tier": str(wanted), "reason": "sneaky"})
    template.refresh_from_db()
    assert template.tier_override is None
    client.logout()
    viewer.delete()
    user = _login(client, OPERATOR)
    form = client.post("/admin/challenges/challengetemplate/",
                       {"action": "set_tier", "_selected_action": [template.pk]}).content.decode()
    assert 'name="tier"' in form and 'name="reason"' in form
    response = client.post("/admin/challenges/challengetemplate/",
                           {"action": "set_tier", "_selected_action": [template.pk], "apply": "1",
                            "tier": str(wanted), "reason": "measured solve rate above the band"}, follow=True)
    assert [str(m) for m in response.context["messages"]] == ["Tier set on 1 template."]
    template.refresh_from_db()
    assert (template.tier, template.tier_override) == (wanted, wanted)
    event = AuditEvent.objects.get(verb="template.tier_changed")
    assert event.actor_id == user.pk and event.reason == "measured solve rate above the band"
    page = client.get(f"/admin/challenges/challengetemplate/{template.pk}/change/").content.decode()
    assert f"staff (spec {template.spec_tier})" in client.get("/admin/challenges/challengetemplate/").content.decode()
    assert "Tier override" in page
