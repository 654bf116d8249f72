import pytest
from django.contrib.auth.models import User

from core.config import Setting, config_value, config_values, declare, unit_interval
from core.errors import ValidationFailed
from core.models import AuditEvent, ConfigOverride
from core.services import config_reset, config_set

declare(
    Setting("testing.threshold", 0.7, "A threshold used only by these tests.", validate=unit_interval),
    Setting("testing.window_days", 90, "A window used only by these tests."),
)


@pytest.mark.django_db
def test_default_until_overridden_then_reset_with_audit():
    staff = User.objects.create_user("op", is_staff=True)
    assert config_value("testing.threshold") == 0.7
    config_set(key="testing.threshold", value=0.65, by=staff, reason="calibration Q4")
    assert config_value("testing.threshold") == 0.65
    assert config_values("testing.") == {"threshold": 0.65, "window_days": 90}
    event = AuditEvent.objects.get(verb="setting.changed")
    assert (event.before, event.after, event.reason, event.actor) == ({"value": 0.7}, {"value": 0.65}, "calibration Q4", staff)
    config_reset(key="testing.threshold", by=staff, reason="undo")
    assert config_value("testing.threshold") == 0.7
    assert AuditEvent.objects.filter(verb="setting.reset").count() == 1


@pytest.mark.django_db
@pytest.mark.parametrize(
    "key, value, code",
    [
        ("testing.threshold", 1.5, "setting_invalid"),
        ("testing.threshold", "0.5", "setting_invalid"),
        ("testing.window_days", 9.5, "setting_invalid"),
        ("testing.nope", 1, "setting_unknown"),
    ],
)
def test_invalid_values_are_refused_and_nothing_changes(key, value, code):
    with pytest.raises(ValidationFailed) as info:
        config_set(key=key, value=value, by=None, reason="try")
    assert info.value.code == code
    assert not ConfigOverride.objects.exists() and not AuditEvent.objects.exists()


@pytest.mark.django_db
def test_reason_is_required():
    with pytest.raises(ValidationFailed) as info:
        config_set(key="testing.threshold", value=0.5, by=None, reason="  ")
    assert info.value.code == "reason_required"
    assert config_value("testing.threshold") == 0.7


@pytest.mark.django_db
def test_admin_settings_pages_change_values(client):
    admin_user = User.objects.create_superuser("root", password="x" * 12)
    client.force_login(admin_user)
    assert "testing.threshold" in client.get("/admin/settings/").content.decode()
    response = client.post("/admin/settings/testing.threshold/", {"value": "0.55", "reason": "staff review"})
    assert response.status_code == 302
    assert config_value("testing.threshold") == 0.55
    response = client.post("/admin/settings/testing.threshold/", {"value": "2", "reason": "typo"})
    assert response.status_code == 200 and "between 0 and 1" in response.content.decode()
    assert config_value("testing.threshold") == 0.55


@pytest.mark.django_db
def test_viewer_cannot_change_settings(client):
    from django.contrib.auth.models import Group

    viewer = User.objects.create_user("v", password="x" * 12, is_staff=True)
    viewer.groups.add(Group.objects.get(name="Viewer"))
    client.force_login(viewer)
    assert client.get("/admin/settings/").status_code == 200
    assert client.post("/admin/settings/testing.threshold/", {"value": "0.1", "reason": "x"}).status_code == 403
    assert config_value("testing.threshold") == 0.7


declare(
    Setting("inputs.enabled", False, "A switch used only by these tests."),
    Setting("inputs.mode", "fast", "A closed choice used only by these tests.", choices=("fast", "thorough")),
    Setting("inputs.weights", [1, 2], "A list used only by these tests."),
)


@pytest.mark.django_db
def test_settings_are_edited_with_typed_inputs(client):
    admin_user = User.objects.create_superuser("root", password="x" * 12)
    client.force_login(admin_user)
    page = client.get("/admin/settings/testing.threshold/").content.decode()
    assert 'type="number" name="value"' in page and 'step="any"' in page and 'min="0"' in page and 'max="1"' in page
    page = client.get("/admin/settings/testing.window_days/").content.decode()
    assert 'type="number" name="value"' in page and 'step="1"' in page
    page = client.get("/admin/settings/inputs.enabled/").content.decode()
    assert 'type="checkbox" name="value"' in page and "<textarea name=\"value\"" not in page
    page = client.get("/admin/settings/inputs.mode/").content.decode()
    assert '<select name="value"' in page and '<option value="thorough">thorough</option>' in page
    page = client.get("/admin/settings/inputs.weights/").content.decode()
    assert '<textarea name="value"' in page  # only lists and tables stay JSON

    response = client.post("/admin/settings/inputs.enabled/", {"value": "on", "reason": "try it"}, follow=True)
    assert config_value("inputs.enabled") is True
    assert [str(m) for m in response.context["messages"]] == ["Setting inputs.enabled changed from off to on."]
    client.post("/admin/settings/testing.window_days/", {"value": "30", "reason": "shorter"})
    assert config_value("testing.window_days") == 30
    client.post("/admin/settings/inputs.mode/", {"value": "thorough", "reason": "slower"})
    assert config_value("inputs.mode") == "thorough"
    refused = client.post("/admin/settings/inputs.mode/", {"value": "reckless", "reason": "no"})
    assert refused.status_code == 200 and config_value("inputs.mode") == "thorough"
    history = client.get("/admin/settings/testing.window_days/").content.decode()
    assert "90 → 30" in history and "shorter" in history and " UTC</td>" in history


def test_validators_declare_kind_and_bounds():
    from core.config import definition, non_negative_number, positive_int

    assert (definition("testing.threshold").kind, definition("testing.threshold").bounds) == (float, (0, 1))
    assert (definition("testing.window_days").kind, definition("testing.window_days").bounds) == (int, (None, None))
    assert (positive_int.kind, positive_int.bounds) == (int, (1, None))
    assert (non_negative_number.kind, non_negative_number.bounds) == (float, (0, None))
