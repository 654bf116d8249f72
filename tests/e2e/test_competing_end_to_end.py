"""An agent competes against a live server and a real q2 cluster, cloning with stock git."""

import subprocess
from datetime import timedelta

import pytest
from django.utils import timezone

from competition.services.bouts import bout_create
from tests import instance_factory as f
from tests.support import http_json, wait_for

pytestmark = [pytest.mark.e2e, pytest.mark.slow]


def git(*args, cwd=None, check=True):
    env = {"PATH": "/usr/bin:/bin", "HOME": "/nonexistent", "GIT_CONFIG_NOSYSTEM": "1", "GIT_TERMINAL_PROMPT": "0"}
    return subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=check, timeout=60)


@pytest.fixture
def bout_live(transactional_db):
    instance = f.make_instance()
    now = timezone.now()
    return bout_create(name="Live", instances=[instance], starts_at=now - timedelta(minutes=1),
                       ends_at=now + timedelta(hours=1), by=None)


def test_agent_competes_end_to_end(live_server, q_cluster, bout_live, agent_with_key, tmp_path):
    base = f"{live_server.url}/api/v1"
    auth = {"Authorization": f"Bearer {agent_with_key.raw_key}"}
    status, _, bouts = http_json(f"{base}/bouts", headers=auth)
    assert status == 200
    challenge = bouts[0]["challenges"][0]["id"]

    status, headers, attempt = http_json(f"{base}/challenges/{challenge}/attempts", headers=auth, method="POST")
    assert status == 201
    clone_url = attempt["workspace"]["clone_url"]
    target = tmp_path / attempt["workspace"]["name"]
    git("-c", f"http.extraHeader=Authorization: Bearer {agent_with_key.raw_key}", "clone", clone_url, str(target))
    assert (target / "rooms" / "ledger.py").read_text() == f.LEDGER_BUGGY
    remotes = git("remote", "-v", cwd=target).stdout.split()
    assert set(remotes[1::3]) == {clone_url}
    assert "Dana Reyes" in git("log", "--format=%an", cwd=target).stdout

    # The fix, made by editing the clone and diffing, as an agent would.
    ledger = target / "rooms" / "ledger.py"
    ledger.write_text(f.LEDGER_FIXED)
    gold = git("diff", cwd=target).stdout

    results = {}
    for key, patch in (("gold", gold), ("wrong", f.WRONG_PATCH)):
        status, _, body = http_json(f"{attempt['submissions_url']}", headers={**auth, "Idempotency-Key": key},
                                    method="POST", body={"patch": patch, "cost_usd": "0.10", "tokens": 900})
        assert status == 202, body

        def done(handle=body["id"]):
            polled = http_json(f"{base}/submissions/{handle}", headers=auth)[2]
            return polled if polled["state"] == "done" else None

        results[key] = wait_for(done, timeout=90, interval=1, what=f"the {key} submission's verdict")
    assert results["gold"]["result"] == "solved" and results["gold"]["tests"] == {"passed": 3, "failed": 0}
    assert results["wrong"]["result"] == "not_solved"

    history = http_json(f"{base}/agent/history", headers=auth)[2]
    assert {s["result"] for s in history[0]["submissions"]} == {"solved", "not_solved"}

    status, _, board = http_json(f"{base}/bouts/{bouts[0]['id']}/leaderboard", headers=auth)
    assert status == 200
    text = str(board)
    assert agent_with_key.agent.name in text and "provisional" in text


def test_forge_refuses_other_agents_and_pushes(live_server, bout_live, agent_with_key, other_competitor, tmp_path):
    from competition.services import agent_create

    base = f"{live_server.url}/api/v1"
    auth = {"Authorization": f"Bearer {agent_with_key.raw_key}"}
    challenge = http_json(f"{base}/bouts", headers=auth)[2][0]["challenges"][0]["id"]
    attempt = http_json(f"{base}/challenges/{challenge}/attempts", headers=auth, method="POST")[2]
    clone_url = attempt["workspace"]["clone_url"]

    stranger = agent_create(owner=other_competitor, name="stranger").raw_key
    refused = git("-c", f"http.extraHeader=Authorization: Bearer {stranger}", "clone", clone_url,
                  str(tmp_path / "stolen"), check=False)
    assert refused.returncode != 0 and "not found" in refused.stderr.lower()
    guessed = git("-c", f"http.extraHeader=Authorization: Bearer {agent_with_key.raw_key}", "clone",
                  clone_url.replace(attempt["workspace"]["name"], "ws-0123456789abcdef"), str(tmp_path / "g"),
                  check=False)
    assert guessed.returncode != 0 and "not found" in guessed.stderr.lower()

    mine = tmp_path / "mine"
    header = f"http.extraHeader=Authorization: Bearer {agent_with_key.raw_key}"
    git("-c", header, "clone", clone_url, str(mine))
    (mine / "new.txt").write_text("x\n")
    git("add", "new.txt", cwd=mine)
    git("-c", "user.name=a", "-c", "user.email=a@b.c", "commit", "-m", "x", cwd=mine)
    pushed = git("-c", header, "push", "origin", "HEAD", cwd=mine, check=False)
    assert pushed.returncode != 0
