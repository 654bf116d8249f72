import pytest
from django.contrib.auth.models import Group
from django.core.management import call_command
from django_q.models import Schedule

from core.bootstrap import roles_ensure, schedules_ensure
from core.roles import INTEGRITY_ANALYST, INTEGRITY_LEAD, OPERATOR, VIEWER
from core.schedules import HEARTBEAT_SCHEDULE


def _perms(name):
    return {f"{p.content_type.app_label}.{p.codename}" for p in Group.objects.get(name=name).permissions.all()}


@pytest.mark.django_db
def test_roles_exist_after_migrate_with_their_permissions():
    assert set(Group.objects.values_list("name", flat=True)) >= {OPERATOR, INTEGRITY_ANALYST, INTEGRITY_LEAD, VIEWER}
    viewer = _perms(VIEWER)
    assert "competition.view_agent" in viewer and "core.view_auditevent" in viewer
    assert not any(p.split(".")[1].startswith(("add_", "change_", "delete_")) for p in viewer)
    operator = _perms(OPERATOR)
    assert {"competition.add_agent", "competition.change_agent"} <= operator
    assert "competition.delete_agent" not in operator
    for role in (OPERATOR, INTEGRITY_ANALYST, INTEGRITY_LEAD, VIEWER):
        assert not {"core.add_auditevent", "core.change_auditevent", "core.delete_auditevent"} & _perms(role)


@pytest.mark.django_db
def test_roles_and_schedules_are_idempotent():
    first = roles_ensure()
    group_ids = dict(Group.objects.values_list("name", "id"))
    schedule_ids = dict(Schedule.objects.values_list("name", "id"))
    call_command("setup_platform", verbosity=0)
    assert roles_ensure() == first
    assert dict(Group.objects.values_list("name", "id")) == group_ids
    assert schedules_ensure().count(HEARTBEAT_SCHEDULE) == 1
    assert dict(Schedule.objects.values_list("name", "id")) == schedule_ids


@pytest.mark.django_db
def test_heartbeat_schedule_is_recurring():
    schedule = Schedule.objects.get(name=HEARTBEAT_SCHEDULE)
    assert schedule.func == "core.tasks.heartbeat"
    assert schedule.schedule_type == Schedule.MINUTES and schedule.repeats == -1
