"""Seasons through the audited service, and the Competition panel on the staff landing page."""

from datetime import timedelta

import pytest
from django.utils import timezone

from competition.models import Bout, Evaluation, Season, Submission
from core.models import AuditEvent
from tests import factories as rows
from tests.integration.competition_admin.conftest import logged_in

pytestmark = pytest.mark.django_db


def test_operator_creates_and_changes_a_season_with_audit_events(operator):
    client = logged_in(operator)
    form = {"name": "2027 spring", "starts_at_0": "2027-03-01", "starts_at_1": "00:00:00",
            "ends_at_0": "2027-06-01", "ends_at_1": "00:00:00"}
    assert client.post("/admin/competition/season/add/", form).status_code == 302
    season = Season.objects.get(name="2027 spring")
    created = AuditEvent.objects.get(verb="season.created")
    assert created.actor == operator and created.after["name"] == "2027 spring"
    form["name"] = "2027 spring open"
    assert client.post(f"/admin/competition/season/{season.pk}/change/", form).status_code == 302
    changed = AuditEvent.objects.get(verb="season.changed")
    assert changed.before["name"] == "2027 spring" and changed.after["name"] == "2027 spring open"


def test_season_that_ends_before_it_starts_is_refused(operator):
    form = {"name": "backwards", "starts_at_0": "2027-06-01", "starts_at_1": "00:00:00",
            "ends_at_0": "2027-03-01", "ends_at_1": "00:00:00"}
    response = logged_in(operator).post("/admin/competition/season/add/", form)
    assert response.status_code == 200
    assert not Season.objects.filter(name="backwards").exists() and not AuditEvent.objects.exists()


def test_viewer_cannot_change_a_season(viewer):
    season = rows.season(name="Fixed")
    form = {"name": "Renamed", "starts_at_0": "2027-03-01", "starts_at_1": "00:00:00",
            "ends_at_0": "2027-06-01", "ends_at_1": "00:00:00"}
    assert logged_in(viewer).post(f"/admin/competition/season/{season.pk}/change/", form).status_code == 403
    season.refresh_from_db()
    assert season.name == "Fixed" and not AuditEvent.objects.exists()


def test_competition_panel_counts_with_links(viewer):
    active = rows.bout(state=Bout.State.ACTIVE, name="Live one", tiers=(1, 2))
    rows.bout(state=Bout.State.CLOSED, name="Done one")
    attempt = rows.attempt(entry=rows.entry(bout=active, agent=rows.agent()), challenge=active.challenges.first())
    rows.submission(attempt=attempt, result=Submission.Result.PENDING)
    rows.submission(attempt=attempt, result=Submission.Result.PENDING)
    running = rows.submission(attempt=attempt, result=Submission.Result.PENDING)
    Submission.objects.filter(pk=running.pk).update(state=Submission.State.RUNNING)
    done = rows.submission(attempt=attempt)
    now = timezone.now()
    Evaluation.objects.create(submission=done, started_at=now, finished_at=now, result="error", reason="x")
    Evaluation.objects.create(submission=done, started_at=now - timedelta(days=2),
                              finished_at=now - timedelta(days=2), result="error", reason="old")
    response = logged_in(viewer).get("/admin/")
    panel = next(p for p in response.context["gauntlet_panels"] if p["key"] == "competition")
    assert (panel["active_total"], panel["queued"], panel["running"], panel["failed"]) == (1, 2, 1, 1)
    assert [bout.name for bout in panel["active_bouts"]] == ["Live one"]
    html = response.content.decode()
    assert 'id="panel-competition"' in html
    assert "/admin/competition/bout/?state__exact=active" in html
    assert "/admin/competition/submission/?state__exact=queued" in html
    assert "/admin/competition/evaluation/?result__exact=error&amp;finished_at__gte=" in html
    assert f"/admin/competition/bout/{active.pk}/change/" in html


def test_competition_panel_hidden_without_permission(db, client):
    from django.contrib.auth.models import User

    client.force_login(User.objects.create_user("bare", password="x" * 16, is_staff=True))
    assert 'id="panel-competition"' not in client.get("/admin/").content.decode()
