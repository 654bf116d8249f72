"""The audit log in the admin: a reason column, search by verb, dates with their zone."""

import re

import pytest
from django.contrib.auth.models import User

from core.services import audit_event_record

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_client(client):
    client.force_login(User.objects.create_superuser("root", password="x" * 12))
    return client


def test_list_shows_reasons_and_zoned_times_and_searches_verbs(staff_client):
    audit_event_record(verb="bout.halt", target_type="competition.bout", target_id=7, actor_label="scheduler",
                       reason="sandbox host failing")
    audit_event_record(verb="setting.changed", target_type="setting", target_id="novelty.nearest_k",
                       reason="calibration " + "x" * 200)
    page = staff_client.get("/admin/core/auditevent/").content.decode()
    assert '<th scope="col" class="column-reason_short">' in page and "sandbox host failing" in page
    assert re.search(r'<td class="field-reason_short"><span title="calibration x+">calibration x+…</span></td>', page)
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d UTC", page)
    found = staff_client.get("/admin/core/auditevent/?q=halt").content.decode()
    assert "sandbox host failing" in found and "novelty.nearest_k" not in found
    found = staff_client.get("/admin/core/auditevent/?q=setting.changed").content.decode()
    assert "novelty.nearest_k" in found and "sandbox host failing" not in found
