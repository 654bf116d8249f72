"""The `gauntlet` command line against a live server and a real q2 cluster, as a competitor runs it.

login → bouts → start (clone) → edit → submit --from-git → wait → leaderboard → report,
with the real console script in a clean HOME, stock git and the real sandbox.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from datetime import timedelta
from pathlib import Path

import pytest
from django.utils import timezone

from competition.models import Attempt, Submission
from competition.services.bouts import bout_create
from tests import instance_factory as f

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

GAUNTLET = str(Path(sys.executable).with_name("gauntlet"))


class Cli:
    """Runs the installed `gauntlet` script in a clean home, remembering everything it printed."""

    def __init__(self, home: Path, cwd: Path):
        self.home, self.cwd = home, cwd
        self.transcript: list[str] = []

    def __call__(self, *args: str, stdin: str | None = None, cwd: Path | None = None, expect: int = 0
                 ) -> subprocess.CompletedProcess[str]:
        env = {"PATH": os.environ["PATH"], "HOME": str(self.home), "XDG_CONFIG_HOME": str(self.home / ".config"),
               "GIT_CONFIG_NOSYSTEM": "1", "LC_ALL": "C.UTF-8"}
        result = subprocess.run([GAUNTLET, *args], cwd=cwd or self.cwd, env=env, input=stdin, capture_output=True,
                                text=True, timeout=180)
        self.transcript += [result.stdout, result.stderr]
        assert result.returncode == expect, (args, result.returncode, result.stdout, result.stderr)
        return result


@pytest.fixture
def live_bout(transactional_db):
    now = timezone.now()
    return bout_create(name="Live bout", instances=[f.make_instance()], starts_at=now - timedelta(minutes=1),
                       ends_at=now + timedelta(hours=1), by=None)


def test_cli_from_key_to_verdict(live_server, q_cluster, live_bout, agent_with_key, tmp_path):
    key = agent_with_key.raw_key
    cli = Cli(tmp_path / "home", tmp_path)

    login = cli("login", "--url", live_server.url, "--key-stdin", stdin=key + "\n")
    assert "as agent 'solver'" in login.stdout
    stored = tmp_path / "home" / ".config" / "gauntlet" / "credentials.json"
    assert stat.S_IMODE(stored.stat().st_mode) == 0o600
    assert stat.S_IMODE(stored.parent.stat().st_mode) == 0o700
    assert json.loads(stored.read_text()) == {"url": live_server.url, "key": key}

    challenge = live_bout.challenges.get().handle
    listing = cli("bouts").stdout
    assert live_bout.handle in listing and challenge in listing and "tier 2" in listing

    started = cli("start", challenge)
    attempt = Attempt.objects.get()
    workspace = tmp_path / attempt.workspace_name
    assert f"Started attempt {attempt.handle}" in started.stdout
    assert (workspace / "rooms" / "ledger.py").read_text() == f.LEDGER_BUGGY
    assert "no task statement" in started.stdout  # a hand-built instance released without one
    git_config = (workspace / ".git" / "config").read_text()
    assert key not in git_config and "extraHeader" not in git_config
    assert f"attempt = {attempt.handle}" in git_config

    # Starting again resumes the same attempt and leaves the clone alone.
    resumed = cli("start", challenge)
    assert f"Resumed attempt {attempt.handle}" in resumed.stdout and Attempt.objects.count() == 1

    # A change that fixes nothing first: wait reports it with exit code 1.
    (workspace / "rooms" / "ledger.py").write_text(f.LEDGER_BUGGY + "\n# looked here\n")
    wrong = cli("submit", "--from-git", cwd=workspace)
    wrong_id = Submission.objects.get().handle
    assert f"Submitted: {wrong_id}" in wrong.stdout
    verdict = cli("wait", wrong_id, "--interval", "0.5", "--timeout", "120", expect=1)
    assert "Verdict: not solved (2 hidden tests passed, 1 failed)" in verdict.stdout
    assert f"{wrong_id}: evaluated." in verdict.stderr

    # The real fix, with cost metadata, waited for in the same command.
    (workspace / "rooms" / "ledger.py").write_text(f.LEDGER_FIXED)
    solved = cli("submit", "--from-git", "--cost", "0.12", "--tokens", "900", "--wait", "--interval", "0.5",
                 cwd=workspace)
    assert "Verdict: solved (3 hidden tests passed, 0 failed)" in solved.stdout
    latest = Submission.objects.order_by("-received_at").first()
    assert latest.result == "solved" and str(latest.cost_usd) == "0.120000" and latest.tokens == 900
    assert latest.idempotency_key in solved.stdout

    # After the solve, start refuses to burn an attempt and says why.
    refused = cli("start", challenge, expect=3)
    assert "error: challenge_solved:" in refused.stderr and Attempt.objects.count() == 1

    board = cli("leaderboard", live_bout.handle).stdout
    assert "   1  solver" in board
    assert json.loads(cli("leaderboard", live_bout.handle, "--json").stdout)["rows"][0]["rank"] == 1
    report = cli("report").stdout
    assert "1/1 attempts solved" in report and "pass@1 1.00" in report

    # The key never reached the terminal.
    assert not any(key in text for text in cli.transcript)


def test_cli_prints_the_api_error_code_and_message(live_server, live_bout, agent_with_key, tmp_path):
    cli = Cli(tmp_path / "home", tmp_path)
    bad = cli("login", "--url", live_server.url, "--key-stdin", stdin="gk_00000000_not-a-real-key\n", expect=3)
    assert "error: invalid_key: Unknown or revoked API key." in bad.stderr
    assert not (tmp_path / "home" / ".config" / "gauntlet").exists()

    cli("login", "--url", live_server.url, "--key-stdin", stdin=agent_with_key.raw_key + "\n")
    missing = cli("start", "ch-0000000000000000", expect=3)
    assert missing.stderr.startswith("error: not_found: Not found.")
    outside = cli("submit", "--from-git", expect=2)
    assert "is not a workspace cloned by `gauntlet start`" in outside.stderr
    unreachable = cli("bouts", "--url", "http://127.0.0.1:9", expect=6)
    assert "Could not reach" in unreachable.stderr
