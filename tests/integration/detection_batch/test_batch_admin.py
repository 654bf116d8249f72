"""Batch runs in the admin: progress, results, the closest pairs side by side, a staff re-run."""

from __future__ import annotations

import pytest
from django.contrib.auth.models import Group, User
from django.test import Client

from competition.models import BoutChallenge
from core.roles import INTEGRITY_ANALYST, VIEWER
from detection.models import BatchRun
from detection.services.batch import batch_run_now
from tests import broker, factories
from tests.instance_factory import make_instance
from tests.integration.detection_batch.test_batch import FIXES, _patch, _solve

pytestmark = pytest.mark.django_db


def _staff(name: str, role: str) -> Client:
    user = User.objects.create_user(name, email=f"{name}@staff.example", password="x" * 16, is_staff=True)
    user.groups.add(Group.objects.get(name=role))
    client = Client()
    client.force_login(user)
    return client


def test_run_page_shows_progress_results_and_pairs_side_by_side():
    bout = factories.bout(tiers=())
    challenge = BoutChallenge.objects.create(bout=bout, instance=make_instance(tier=3), handle="cadmin0001",
                                             position=1)
    a = _solve(bout, challenge, _patch(FIXES["ring"]), 100)
    b = _solve(bout, challenge, _patch(FIXES["ring"]), 200)
    c = _solve(bout, challenge, _patch(FIXES["minmax"]), 300)
    run = batch_run_now(bout=bout)
    viewer = _staff("vera", VIEWER)

    page = viewer.get(f"/admin/detection/batchrun/{run.pk}/change/").content.decode()
    assert "1/1" in page and "pairs and evidence" in page and challenge.handle in page

    result = run.results.get()
    detail = viewer.get(f"/admin/detection/batchchallengeresult/{result.pk}/change/").content.decode()
    assert f"{a.handle} ~ {b.handle}" in detail or f"{b.handle} ~ {a.handle}" in detail
    assert "identical normal forms" in detail  # the ring's pair
    assert "max(start_a, start_b)" in detail  # the patches themselves, side by side
    assert c.handle in detail and "Every pair" in detail
    # A viewer cannot ask for a run.
    before = BatchRun.objects.count()
    refused = viewer.post("/admin/detection/batchrun/", {"action": "rerun", "_selected_action": [run.pk]})
    assert refused.status_code in (200, 403) and BatchRun.objects.count() == before


def test_analyst_queues_a_rerun(django_capture_on_commit_callbacks):
    bout = factories.bout(tiers=(1,))
    run = batch_run_now(bout=bout)
    analyst = _staff("ana", INTEGRITY_ANALYST)
    broker.purge()
    with django_capture_on_commit_callbacks(execute=True):
        response = analyst.post("/admin/detection/batchrun/", {"action": "rerun", "_selected_action": [run.pk]},
                                follow=True)
    assert response.status_code == 200
    rerun = BatchRun.objects.exclude(pk=run.pk).get()
    assert (rerun.bout_id, rerun.trigger, rerun.state) == (bout.pk, BatchRun.Trigger.STAFF, BatchRun.State.QUEUED)
    assert broker.size() == 1
