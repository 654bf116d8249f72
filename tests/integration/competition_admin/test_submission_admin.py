"""Submission, challenge, attempt and evaluation admin: read-only records, rescoring with a reason."""

from datetime import timedelta

import pytest
from django.utils import timezone

from competition.models import Attempt, Evaluation, Submission
from core.models import AuditEvent
from tests import factories as rows
from tests.integration.competition_admin.conftest import audit_count, confirm, logged_in, messages_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def attempt():
    bout = rows.bout()
    return rows.attempt(entry=rows.entry(bout=bout, agent=rows.agent(name="patcher")), challenge=bout.challenges.first())


@pytest.fixture
def finished(attempt):
    submission = rows.submission(attempt=attempt, seconds=95)
    Evaluation.objects.create(
        submission=submission, started_at=timezone.now(), finished_at=timezone.now(), result="not_solved",
        reason="1 of 2 hidden tests failed", wall_seconds=1.5,
        verdicts={"test_hidden.HiddenTest.test_back_to_back": "failed", "test_hidden.HiddenTest.test_disjoint": "passed"},
    )
    return submission


def test_operator_rescores_finished_submissions_only(operator, attempt, finished, django_capture_on_commit_callbacks):
    queued = rows.submission(attempt=attempt, result=Submission.Result.PENDING)
    with django_capture_on_commit_callbacks() as callbacks:
        response = confirm(logged_in(operator), "submission", "rescore_submissions", [finished, queued],
                           "sandbox image upgraded")
    finished.refresh_from_db()
    assert finished.state == Submission.State.QUEUED and len(callbacks) == 1
    audit = AuditEvent.objects.get(verb="submissions.rescored")
    assert audit.actor == operator and audit.reason == "sandbox image upgraded"
    assert audit.after == {"submissions": [finished.pk]}
    assert sorted(messages_of(response)) == sorted([
        "1 submission queued for rescoring.", "1 submission is still being evaluated and was not rescored.",
    ])
    # The earlier evaluation stays: rescoring adds rows, never rewrites.
    assert finished.evaluations.count() == 1


def test_nothing_finished_means_nothing_recorded(operator, attempt):
    queued = rows.submission(attempt=attempt, result=Submission.Result.PENDING)
    audits = audit_count()
    response = confirm(logged_in(operator), "submission", "rescore_submissions", [queued], "try again")
    assert audit_count() == audits
    assert messages_of(response) == ["1 submission is still being evaluated and was not rescored."]


def test_submission_page_shows_verdicts_and_server_time_read_only(operator, finished):
    client = logged_in(operator)
    listing = client.get("/admin/competition/submission/").content.decode()
    assert finished.handle in listing and "1 m 35 s" in listing and "patcher" in listing
    page = client.get(f"/admin/competition/submission/{finished.pk}/change/").content.decode()
    assert "test_hidden.HiddenTest.test_back_to_back" in page and "1 of 2 hidden tests failed" in page
    assert "1 m 35 s" in page and 'name="_save"' not in page and "act/rescore/?ids=" in page
    assert client.get("/admin/competition/submission/add/").status_code == 403
    assert client.get(f"/admin/competition/submission/{finished.pk}/delete/").status_code == 403
    assert client.post(f"/admin/competition/submission/{finished.pk}/change/", {"result": "solved"}).status_code == 403
    finished.refresh_from_db()
    assert finished.result == Submission.Result.NOT_SOLVED


def test_viewer_cannot_rescore(viewer, finished):
    client = logged_in(viewer)
    audits = audit_count()
    url = f"/admin/competition/submission/act/rescore/?ids={finished.pk}"
    assert client.get(url).status_code == 403
    assert client.post(url, {"reason": "let me"}).status_code == 403
    finished.refresh_from_db()
    assert finished.state == Submission.State.DONE and audit_count() == audits


def test_operator_rescores_a_challenge(operator, finished, django_capture_on_commit_callbacks):
    challenge = finished.attempt.challenge
    with django_capture_on_commit_callbacks() as callbacks:
        response = confirm(logged_in(operator), "boutchallenge", "rescore_challenges", [challenge], "oracle fix")
    finished.refresh_from_db()
    assert finished.state == Submission.State.QUEUED and len(callbacks) == 1
    assert AuditEvent.objects.get(verb="submissions.rescored").reason == "oracle fix"
    assert messages_of(response) == ["1 challenge sent for rescoring (1 submission queued)."]


def test_viewer_cannot_rescore_a_challenge(viewer, finished):
    url = f"/admin/competition/boutchallenge/act/rescore/?ids={finished.attempt.challenge.pk}"
    assert logged_in(viewer).post(url, {"reason": "let me"}).status_code == 403
    finished.refresh_from_db()
    assert finished.state == Submission.State.DONE


def test_attempts_and_evaluations_are_read_only(operator, finished):
    client = logged_in(operator)
    attempt = finished.attempt
    evaluation = finished.evaluations.get()
    assert attempt.handle in client.get("/admin/competition/attempt/").content.decode()
    for model, pk in (("attempt", attempt.pk), ("evaluation", evaluation.pk)):
        assert client.get(f"/admin/competition/{model}/{pk}/change/").status_code == 200
        assert client.post(f"/admin/competition/{model}/{pk}/change/", {}).status_code == 403
        assert client.get(f"/admin/competition/{model}/add/").status_code == 403
        assert client.get(f"/admin/competition/{model}/{pk}/delete/").status_code == 403
    assert Attempt.objects.filter(pk=attempt.pk).exists() and Evaluation.objects.filter(pk=evaluation.pk).exists()


def test_failed_evaluations_filter_used_by_the_dashboard(operator, finished):
    failed = Evaluation.objects.create(
        submission=finished, started_at=timezone.now(), finished_at=timezone.now(), result="error",
        reason="sandbox unavailable",
    )
    Evaluation.objects.create(
        submission=finished, started_at=timezone.now() - timedelta(days=3),
        finished_at=timezone.now() - timedelta(days=3), result="error", reason="old failure",
    )
    since = (timezone.now() - timedelta(hours=24)).isoformat()
    response = logged_in(operator).get("/admin/competition/evaluation/", {"result__exact": "error", "finished_at__gte": since})
    assert response.status_code == 200
    assert list(response.context["cl"].result_list) == [failed]


@pytest.mark.parametrize("model", ["score", "submission", "attempt", "boutentry", "bout", "boutchallenge"])
def test_changelist_queries_do_not_grow_with_rows(operator, model, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    def build(count):
        bout = rows.bout(tiers=(1,) * count)
        entry = rows.entry(bout=bout, agent=rows.agent())
        for challenge in bout.challenges.all():
            rows.solve(entry=entry, challenge=challenge)

    client = logged_in(operator)
    build(1)
    with CaptureQueriesContext(connection) as few:
        assert client.get(f"/admin/competition/{model}/").status_code == 200
    build(6)
    with django_assert_max_num_queries(len(few.captured_queries)):
        assert client.get(f"/admin/competition/{model}/").status_code == 200
