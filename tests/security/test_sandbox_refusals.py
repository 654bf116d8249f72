"""Class 4: where the host cannot isolate the code under test, the platform refuses and says why.

Each refusal is produced by a real host condition (a user namespace whose limit is 0, a cgroup
that does not exist, a sandbox user that is root), not by a stubbed check.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from dataclasses import replace
from pathlib import Path

import pytest

from challenges.checks import sandbox_isolation_check
from challenges.sandbox import HostLayout, SandboxUnavailable, check_available, run
from challenges.sandbox.core import default_layout
from challenges.sandbox.identity import HostUser
from tests.security.sandbox_support import REPOSITORY

IN_NAMESPACE = r"""
import json, sys, tempfile, warnings
from pathlib import Path
from challenges.sandbox import SandboxUnavailable, check_available, run
out = {"reason": check_available()}
with tempfile.TemporaryDirectory() as tmp:
    try:
        run(["true"], workdir=Path(tmp))
        out["run"] = "ran"
    except SandboxUnavailable as exc:
        out["run"] = exc.code
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        out["unsafe"] = run(["sh", "-c", "echo unsafe"], workdir=Path(tmp), allow_unsafe=True).stdout
    out["warned"] = any("SANDBOX DISABLED" in str(w.message) for w in caught)
print(json.dumps(out))
"""


@pytest.fixture
def workdir(tmp_path: Path) -> Path:
    path = tmp_path / "ws"
    path.mkdir()
    return path


@pytest.mark.slow
def test_a_host_without_user_namespaces_is_refused_with_the_sysctl_to_change():
    # A user namespace whose own user.max_user_namespaces is 0 is a host where they are disabled.
    shell = 'echo 0 > /proc/sys/user/max_user_namespaces && exec "$0" -c "$1"'
    done = subprocess.run(["unshare", "--user", "--map-root-user", "--", "sh", "-c", shell, sys.executable,
                           IN_NAMESPACE], capture_output=True, text=True, cwd=REPOSITORY, timeout=120,
                          env={"PATH": "/usr/bin:/bin", "PYTHONPATH": f"{REPOSITORY}:{REPOSITORY / 'platform'}"})
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout.splitlines()[-1])
    assert "user namespaces are disabled" in out["reason"] and "max_user_namespaces" in out["reason"]
    assert out["run"] == "sandbox_unavailable"
    assert out["unsafe"] == "unsafe\n" and out["warned"]


def test_no_memory_cgroup_is_refused_unless_unsafe(workdir: Path, monkeypatch):
    monkeypatch.setenv("GAUNTLET_SANDBOX_CGROUP", "/no-such-group-for-the-sandbox")
    layout = HostLayout()
    assert layout.cgroups is None
    reason = check_available(layout)
    assert reason is not None and reason.startswith("the memory cap cannot be enforced")
    assert "/no-such-group-for-the-sandbox" in reason
    with pytest.raises(SandboxUnavailable) as info:
        run(["true"], workdir=workdir, layout=layout)
    assert str(info.value) == f"sandbox_unavailable: {reason}"
    with pytest.warns(RuntimeWarning, match="SANDBOX DISABLED"):
        result = run(["sh", "-c", "hostname; id -u"], workdir=workdir, layout=layout, allow_unsafe=True)
    # Still bubblewrap and still unprivileged; only the cgroup caps are missing.
    assert result.stdout == "devbox\n1000\n"


def test_a_root_sandbox_user_is_refused(workdir: Path, monkeypatch):
    monkeypatch.setenv("GAUNTLET_SANDBOX_USER", "root")
    layout = HostLayout()
    reason = check_available(layout)
    assert reason is not None
    if os.geteuid() == 0:
        assert "must never run as host root" in reason
    else:
        assert "needs a root worker" in reason
    with pytest.raises(SandboxUnavailable):
        run(["true"], workdir=workdir, layout=layout)


def test_a_root_worker_without_a_sandbox_user_is_refused(workdir: Path):
    layout = replace(default_layout(), run_as=None, run_as_problem=None)
    reason = check_available(layout)
    if os.geteuid() != 0:
        assert reason is None  # an unprivileged worker runs the sandbox as itself
        return
    assert reason is not None and "would run as host root" in reason
    with pytest.raises(SandboxUnavailable):
        run(["true"], workdir=workdir, layout=layout)


def test_an_interpreter_the_sandbox_user_cannot_read_is_refused(tmp_path: Path):
    if os.geteuid() != 0:
        assert default_layout().run_as is None  # an unprivileged worker reads what it runs itself
        return
    private = tmp_path / "private"
    (private / "python" / "bin").mkdir(parents=True)
    private.chmod(0o700)
    user = default_layout().run_as
    assert isinstance(user, HostUser)
    layout = replace(default_layout(), python_prefix=str(private / "python"))
    reason = check_available(layout)
    assert reason is not None and f"cannot read the Python installation at {private / 'python'}" in reason
    blocked = reason.split(" (", 1)[1].split(" is closed to it)")[0]
    assert str(private).startswith(blocked) and blocked != "/"


def _ids(monkeypatch, **env: str) -> set[str]:
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return {message.id for message in sandbox_isolation_check()}


def test_deploy_check_is_quiet_on_a_well_set_up_host(monkeypatch):
    # A root worker is warned about whatever else holds (W005); the unprivileged set-up is shown
    # quiet for real in test_sandbox_unprivileged_worker.py.
    expected = {"gauntlet.sandbox.W005"} if os.geteuid() == 0 else set()
    assert _ids(monkeypatch) - {"gauntlet.sandbox.I001"} == expected


def test_deploy_check_warns_when_code_would_run_as_root(monkeypatch):
    ids = _ids(monkeypatch, GAUNTLET_SANDBOX_USER="root")
    # Only a root worker could run code as root; an unprivileged one cannot switch users at all.
    assert ("gauntlet.sandbox.W001" if os.geteuid() == 0 else "gauntlet.sandbox.W003") in ids


def test_deploy_check_warns_when_the_worker_runs_as_root(monkeypatch):
    # The code under test drops to the sandbox user, but the worker parses and applies every
    # agent's patch as root, and root ignores the workspace cache's read-only modes.
    ids = _ids(monkeypatch)
    if os.geteuid() == 0:
        assert default_layout().run_as is not None
        assert "gauntlet.sandbox.W005" in ids and "gauntlet.sandbox.W001" not in ids
    else:
        assert "gauntlet.sandbox.W005" not in ids


def test_deploy_check_warns_without_a_memory_cap(monkeypatch):
    ids = _ids(monkeypatch, GAUNTLET_SANDBOX_CGROUP="/no-such-group-for-the-sandbox")
    assert "gauntlet.sandbox.W002" in ids


def test_deploy_check_warns_in_unsafe_mode(monkeypatch, settings):
    settings.GAUNTLET_SANDBOX_ALLOW_UNSAFE = True
    assert "gauntlet.sandbox.W004" in _ids(monkeypatch)
