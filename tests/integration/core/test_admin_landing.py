import pytest
from django.contrib.auth.models import Group, User

from core.roles import VIEWER
from core.tasks import heartbeat


@pytest.mark.django_db
def test_staff_landing_shows_panels_by_permission(client):
    heartbeat()
    viewer = User.objects.create_user("viewer", password="x" * 12, is_staff=True)
    viewer.groups.add(Group.objects.get(name=VIEWER))
    client.force_login(viewer)
    html = client.get("/admin/").content.decode()
    assert "Gauntlet staff" in html
    assert 'id="panel-platform-health"' in html and "alive" in html
    assert 'id="panel-recent-audit-events"' in html


@pytest.mark.django_db
def test_panel_hidden_without_permission(client):
    bare = User.objects.create_user("bare", password="x" * 12, is_staff=True)
    client.force_login(bare)
    html = client.get("/admin/").content.decode()
    assert 'id="panel-platform-health"' in html
    assert 'id="panel-recent-audit-events"' not in html


@pytest.mark.django_db
def test_audit_events_are_read_only_in_admin(client, agent_with_key):
    admin_user = User.objects.create_superuser("root", password="x" * 12)
    client.force_login(admin_user)
    assert client.get("/admin/core/auditevent/").status_code == 200
    assert client.get("/admin/core/auditevent/add/").status_code == 403
