"""Staff users of each role and the admin round trip every state change takes.

A change starts as a list action on the changelist, which redirects to its confirmation
page; the page's POST, with a reason, applies it and returns to the list.
"""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from core.models import AuditEvent
from core.roles import INTEGRITY_LEAD, OPERATOR, VIEWER


def staff_member(username: str, role: str) -> User:
    user = User.objects.create_user(username, email=f"{username}@staff.example", password="x" * 16, is_staff=True)
    user.groups.add(Group.objects.get(name=role))
    return user


@pytest.fixture
def operator(db) -> User:
    return staff_member("olga", OPERATOR)


@pytest.fixture
def lead(db) -> User:
    return staff_member("lena", INTEGRITY_LEAD)


@pytest.fixture
def viewer(db) -> User:
    return staff_member("vic", VIEWER)


def logged_in(user: User) -> Client:
    client = Client()
    client.force_login(user)
    return client


def messages_of(response) -> list[str]:
    return [str(message) for message in response.context["messages"]]


def start_action(client: Client, model: str, action: str, rows) -> str:
    """Pick ``action`` for ``rows`` on the changelist; returns the confirmation page URL."""
    response = client.post(
        f"/admin/competition/{model}/", {"action": action, "_selected_action": [row.pk for row in rows]}
    )
    assert response.status_code == 302, response.content[:500]
    assert f"/admin/competition/{model}/act/" in response["Location"]
    return response["Location"]


def confirm(client: Client, model: str, action: str, rows, reason: str, **fields: str):
    """The whole round trip: action, confirmation page (GET), POST with the reason (and any
    other ``fields`` of the form, such as ``public_reason``).

    Returns the followed response (the changelist with its messages)."""
    url = start_action(client, model, action, rows)
    page = client.get(url)
    assert page.status_code == 200 and 'name="reason"' in page.content.decode()
    response = client.post(url, {"reason": reason, **fields}, follow=True)
    assert response.redirect_chain[0] == (f"/admin/competition/{model}/", 302)
    return response


def audit_count() -> int:
    return AuditEvent.objects.count()
