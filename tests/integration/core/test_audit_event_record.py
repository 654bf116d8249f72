import pytest
from django.db import transaction

from competition.models import Agent
from core.models import AuditEvent
from core.services import audit_event_record


@pytest.mark.django_db
def test_records_actor_target_before_after_and_reason(agent_with_key, competitor):
    event = audit_event_record(
        verb="agent.renamed", target=agent_with_key.agent, actor=competitor,
        before={"name": "old"}, after={"name": "new"}, reason="typo",
    )
    stored = AuditEvent.objects.get(pk=event.pk)
    assert (stored.verb, stored.target_type, stored.target_id) == ("agent.renamed", "competition.agent", str(agent_with_key.agent.pk))
    assert stored.actor == competitor and stored.before == {"name": "old"} and stored.after == {"name": "new"}
    assert stored.reason == "typo" and stored.occurred_at.tzinfo is not None


@pytest.mark.django_db
def test_event_rolls_back_with_the_change(competitor):
    before = AuditEvent.objects.count()
    with pytest.raises(RuntimeError), transaction.atomic():
        agent = Agent.objects.create(owner=competitor, name="doomed")
        audit_event_record(verb="agent.created", target=agent, actor=competitor)
        raise RuntimeError("the change fails")
    assert AuditEvent.objects.count() == before
    assert not Agent.objects.filter(name="doomed").exists()


@pytest.mark.django_db
def test_non_row_targets_need_type_and_id():
    with pytest.raises(ValueError):
        audit_event_record(verb="template.retired", target_type="template")
    event = audit_event_record(verb="template.retired", target_type="template", target_id="t-1", actor_label="rotation")
    assert event.target_id == "t-1" and event.actor is None and event.actor_label == "rotation"
