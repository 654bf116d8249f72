"""Class 4, the recommended production set-up: an unprivileged worker with a delegated cgroup.

The worker process here really is unprivileged (``nobody``, started with ``setpriv``), and the
cgroup it may use is delegated to it the way systemd's ``Delegate=`` does (its directories
chowned to it). It runs the sandbox as itself, caps memory in its own child groups, and is
refused, with the reason, when nothing is delegated.
"""

from __future__ import annotations

import json
import os
import pwd
import secrets
import shutil
import site
import subprocess
from pathlib import Path

import pytest

from challenges.sandbox.core import default_layout
from challenges.sandbox.identity import HostUser, resolve_sandbox_user, unreadable_by
from tests.security.sandbox_support import REPOSITORY

WORKER = r"""
import json, sys, tempfile
from pathlib import Path
from challenges.sandbox import Limits, check_available, run
from challenges.sandbox.core import default_layout
out = {"reason": check_available(), "run_as": default_layout().run_as}
if out["reason"] is None:
    with tempfile.TemporaryDirectory() as tmp:
        ok = run(["sh", "-c", "id -u; cat /proc/self/uid_map"], workdir=Path(tmp))
        # 150 MB of files and 100 MB of memory: each fits its own limit, not the run's cap.
        fill = "for i in 1 2 3 4 5; do head -c 30000000 /dev/zero > f$i || exit 3; done; "
        big = run(["sh", "-c", fill + "python3 -c 'block = bytearray(b\"x\") * (100 << 20)'"], workdir=Path(tmp),
                  limits=Limits(memory_mb=200))
    out.update(stdout=ok.stdout, big=big.killed_reason)
print(json.dumps(out))
"""


def _as_worker(user: HostUser, args: list[str], env: dict[str, str], join: str | None = None
               ) -> subprocess.CompletedProcess:
    """Run Python with ``args`` as ``user``; ``join``: a cgroup.procs the worker starts in (v2 delegation)."""
    python = default_layout().host_python()
    packages = ":".join(p for p in site.getsitepackages() if Path(p).is_dir())
    for path in (python, str(REPOSITORY), *packages.split(":")):
        blocked = unreadable_by(path, user)
        assert blocked is None, f"{user.name} cannot read {path} ({blocked}): put the checkout somewhere readable"
    start = ["sh", "-c", 'echo $$ > "$0" && exec "$@"', join] if join else []
    return subprocess.run(
        [*start, "setpriv", f"--reuid={user.uid}", f"--regid={user.gid}", "--clear-groups", "--", python, *args],
        capture_output=True, text=True, cwd="/", timeout=120,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{REPOSITORY}:{packages}", **env})


def _worker(user: HostUser, env: dict[str, str], join: str | None = None) -> dict:
    """Run WORKER as ``user``."""
    done = _as_worker(user, ["-c", WORKER], env, join)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.splitlines()[-1])


@pytest.fixture
def worker_user() -> HostUser:
    entry = pwd.getpwnam("nobody")
    return HostUser(entry.pw_name, entry.pw_uid, entry.pw_gid)


def _chown_tree(group: Path, user: HostUser) -> None:
    for path in (group, *group.iterdir()):
        os.chown(path, user.uid, user.gid)


def _mount_of(path: Path) -> Path:
    while not os.path.ismount(path) and path != path.parent:
        path = path.parent
    return path


@pytest.fixture
def delegated(worker_user: HostUser):
    """(environment, cgroup.procs to start in) delegating a cgroup to the worker user.

    cgroup v1: a group in each controller's hierarchy, chowned, named by GAUNTLET_SANDBOX_CGROUP.
    cgroup v2: what systemd's Delegate= with DelegateSubgroup=supervisor sets up: a group with the
    controllers enabled for its children, chowned, the worker started in its supervisor/ leaf.
    """
    layout = default_layout()
    assert layout.cgroups is not None
    name = f"sbx-delegated-{secrets.token_hex(4)}"
    created: list[Path] = []
    if layout.cgroups.version == 2:
        group = _mount_of(Path(layout.cgroups.base("memory"))) / name
        group.mkdir()
        created.append(group)
        for controller in layout.cgroups.controllers:
            (group / "cgroup.subtree_control").write_text(f"+{controller}")
        (group / "supervisor").mkdir()
        _chown_tree(group, worker_user)
        _chown_tree(group / "supervisor", worker_user)
        yield {}, str(group / "supervisor" / "cgroup.procs")
    else:
        for _, base in layout.cgroups.bases:
            group = _mount_of(Path(base)) / name
            if group not in created:
                group.mkdir()
                created.append(group)
                _chown_tree(group, worker_user)
        yield {"GAUNTLET_SANDBOX_CGROUP": f"/{name}"}, None
    for group in created:
        for child in sorted(group.iterdir(), reverse=True):
            if child.is_dir():
                child.rmdir()
        group.rmdir()


@pytest.mark.slow
def test_an_unprivileged_worker_with_a_delegated_cgroup_runs_the_sandbox_as_itself(worker_user, delegated):
    if os.geteuid() != 0:
        # Already unprivileged: the sandbox runs as this very user, nothing to switch to.
        assert resolve_sandbox_user(None, euid=os.geteuid()) == (None, None)
        return
    env, join = delegated
    out = _worker(worker_user, env, join)
    assert out["reason"] is None and out["run_as"] is None
    # Inside: the neutral user, mapped (one namespace up) from bubblewrap's own user.
    assert out["stdout"].split() == ["1000", "1000", "0", "1"]
    assert out["big"] == "memory_limit"


@pytest.mark.slow
def test_an_unprivileged_worker_without_delegation_is_refused(worker_user):
    if os.geteuid() != 0:
        assert resolve_sandbox_user(None, euid=os.geteuid()) == (None, None)
        return
    assert shutil.which("setpriv")
    out = _worker(worker_user, {})
    assert out["reason"].startswith("the memory cap cannot be enforced")
    assert "Permission denied" in out["reason"]


# The deployment check as the worker process sees it. (Not through manage.py: the platform's own
# interpreter may be unreadable to this user, and the system one lacks what the broker client needs
# on older patch releases; the check reads only the host and one setting.)
DEPLOY_CHECK = r"""
import json
from django.conf import settings
settings.configure(GAUNTLET_SANDBOX_ALLOW_UNSAFE=False)
from challenges.checks import sandbox_isolation_check
print(json.dumps(sorted(message.id for message in sandbox_isolation_check())))
"""


@pytest.mark.slow
def test_deploy_check_is_quiet_for_an_unprivileged_worker_with_a_delegated_cgroup(worker_user, delegated):
    """The root-worker warning (W005) and every other one are absent for the recommended set-up."""
    if os.geteuid() != 0:
        from challenges.checks import sandbox_isolation_check

        assert "gauntlet.sandbox.W005" not in {message.id for message in sandbox_isolation_check()}
        return
    env, join = delegated
    done = _as_worker(worker_user, ["-c", DEPLOY_CHECK], env, join)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == []
