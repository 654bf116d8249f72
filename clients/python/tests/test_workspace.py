"""Diffing a workspace for submission, with real git."""

import subprocess

import pytest

from gauntlet_client import workspace as ws


def git(cwd, *args):
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path):
    root = tmp_path / "ws-0123456789abcdef"
    root.mkdir()
    git(root, "init", "-q")
    (root / "src").mkdir()
    (root / "src" / "ledger.py").write_text("x = a <= b\n")
    (root / ".gitignore").write_text("*.log\n")
    git(root, "add", ".")
    git(root, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "base")
    base = git(root, "rev-parse", "HEAD").strip()
    for name, value in (("attempt", "att-1"), ("base", base), ("url", "http://h")):
        git(root, "config", "--local", f"gauntlet.{name}", value)
    return root


def test_info_reads_the_recorded_attempt_from_any_subdirectory(repo):
    found = ws.info(repo / "src")
    assert found is not None and (found.attempt, found.url, found.path) == ("att-1", "http://h", repo)


def test_info_is_none_outside_a_workspace(tmp_path):
    assert ws.info(tmp_path) is None


def test_diff_covers_edits_new_files_and_commits_but_not_ignored_files(repo):
    (repo / "src" / "ledger.py").write_text("x = a < b\n")
    (repo / "src" / "new.py").write_text("y = 1\n")
    (repo / "debug.log").write_text("noise\n")
    (repo / "README.md").write_text("notes\n")
    git(repo, "add", "README.md")
    git(repo, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "mine")
    staged_before = git(repo, "diff", "--cached", "--name-only")

    patch = ws.diff(ws.info(repo))
    assert "--- a/src/ledger.py" in patch and "+x = a < b" in patch
    assert "+++ b/src/new.py" in patch and "+++ b/README.md" in patch
    assert "debug.log" not in patch
    # The agent's own index is untouched.
    assert git(repo, "diff", "--cached", "--name-only") == staged_before
    # The patch applies to the base commit.
    git(repo, "stash", "-u", "-q")
    git(repo, "checkout", "-q", ws.info(repo).base)
    subprocess.run(["git", "apply", "--check", "-"], cwd=repo, input=patch, text=True, check=True)


def test_diff_of_an_untouched_workspace_is_empty(repo):
    assert ws.diff(ws.info(repo)) == ""


def test_auth_env_scopes_the_key_to_the_clone_url():
    env = ws.auth_env("http://h/git/ws-1.git", "gk_k")
    assert env == {"GIT_CONFIG_COUNT": "1", "GIT_CONFIG_KEY_0": "http.http://h/git/ws-1.git.extraHeader",
                   "GIT_CONFIG_VALUE_0": "Authorization: Bearer gk_k"}


def test_statement_goes_beside_the_workspace(tmp_path):
    assert ws.statement_path(tmp_path / "ws-1") == tmp_path / "ws-1.statement.md"
