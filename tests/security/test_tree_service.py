"""The tree-preparation attacks through the real services: the API refuses them with their
codes and writes nothing; an evaluation that meets one is an error that changed nothing; a
.git planted above the evaluation directory does not stop the gold patch from solving."""

from __future__ import annotations

import subprocess
from datetime import timedelta

import pytest
from django.utils import timezone

from challenges.oracle_runner import run_oracle
from challenges.services.oracle import oracle_run
from challenges.services.workspaces import instance_secrets, workspace_tree
from competition.models import Submission
from competition.services.bouts import bout_create
from competition.services.evaluation import submission_evaluate
from core.models import AuditEvent
from tests import instance_factory as f
from tests.security.tree_support import snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def instance(settings, tmp_path):
    settings.VAR_DIR = tmp_path / "var"
    return f.make_instance()


@pytest.fixture
def attempt_url(agent_client, instance):
    now = timezone.now()
    bout = bout_create(name="Tree", instances=[instance], starts_at=now - timedelta(minutes=1),
                       ends_at=now + timedelta(hours=1), by=None)
    bout.concurrent_evaluations = 10
    bout.save()
    response = agent_client.post(f"/api/v1/challenges/{bout.challenges.get().handle}/attempts")
    return f"/api/v1/attempts/{response.json()['id']}/submissions"


def _symlink_patch(path: str, target: str, mode: str) -> str:
    return (f"diff --git a/{path} b/{path}\nnew file mode {mode}\n--- /dev/null\n+++ b/{path}\n@@ -0,0 +1 @@\n"
            f"+{target}\n\\ No newline at end of file\n")


@pytest.mark.parametrize("mode", ["0120000", "120000 ", "120000"])
def test_api_refuses_symlink_patches_and_writes_nothing(agent_client, attempt_url, instance, tmp_path, mode):
    host = tmp_path / "host"
    host.mkdir()
    cache = workspace_tree(instance).parent
    before_cache, before_host, events = snapshot(cache), snapshot(host), AuditEvent.objects.count()
    response = agent_client.post(attempt_url, {"patch": _symlink_patch("rooms/link", str(host), mode)},
                                 format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert response.status_code == 400 and response.json()["code"] == "patch_symlink", response.content
    assert not Submission.objects.exists() and AuditEvent.objects.count() == events
    assert snapshot(cache) == before_cache and snapshot(host) == before_host


def test_api_refuses_a_copy_from_a_host_file(agent_client, attempt_url, instance, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("host secret\n")
    patch = f"diff --git a/x b/rooms/stolen.py\nsimilarity index 100%\ncopy from {secret}\ncopy to rooms/stolen.py\n"
    response = agent_client.post(attempt_url, {"patch": patch}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert response.status_code == 400 and response.json()["code"] == "patch_copy_source", response.content
    assert not Submission.objects.exists()


def test_quoted_edit_of_a_test_file_is_accepted_but_never_counts(agent_client, attempt_url):
    # Only the visible test is edited, under quoted names; the fix itself is not made.
    cheat = ('diff --git "a/tests/test_calendar.py" "b/tests/test_calendar.py"\n--- "a/tests/test_calendar.py"\n'
             '+++ "b/tests/test_calendar.py"\n@@ -1,2 +1,3 @@\n import unittest\n'
             '+import rooms.ledger as l; l.overlaps = lambda a, b, c, d: a < d and c < b\n \n')
    response = agent_client.post(attempt_url, {"patch": cheat}, format="json", HTTP_IDEMPOTENCY_KEY="k")
    assert response.status_code == 202, response.content
    submission = Submission.objects.get()
    assert submission_evaluate(submission_id=submission.pk) == "not_solved"


def test_evaluation_of_a_stored_hostile_patch_is_an_error_that_changes_nothing(instance, tmp_path):
    # As if a patch had slipped past the submission checks: the evaluation refuses it itself.
    host = tmp_path / "host"
    host.mkdir()
    cache = workspace_tree(instance).parent
    before_cache, before_host = snapshot(cache), snapshot(host)
    patch = _symlink_patch("tests", str(host), "0120000")
    outcome = oracle_run(instance=instance, patch=patch)
    assert outcome.result == "error" and "symbolic link" in outcome.reason
    assert snapshot(cache) == before_cache and snapshot(host) == before_host


def test_gold_patch_solves_with_a_git_repository_planted_above_the_evaluation(instance, tmp_path):
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    subprocess.run(["git", "init", "-q", str(scratch)], check=True, env={"PATH": "/usr/bin:/bin"})
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True, env={"PATH": "/usr/bin:/bin"})
    secrets = instance_secrets(instance)
    outcome = run_oracle(workspace_tree(instance), language="python", oracle_files=secrets["oracle_files"],
                         patch=f.GOLD_PATCH, scratch=scratch, allow_unsafe=False)
    assert outcome.result == "solved", outcome
    assert sorted(p.name for p in scratch.iterdir()) == [".git"]  # the private directory is gone
