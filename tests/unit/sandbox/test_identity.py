"""Choosing the host user code under test runs as, and reading the user-namespace sysctls."""

from __future__ import annotations

import os
import pwd
import shutil
import tempfile
from pathlib import Path

import pytest

from challenges.sandbox.identity import (
    DEFAULT_USER,
    FALLBACK_USER,
    HostUser,
    drop_prefix,
    resolve_sandbox_user,
    unreadable_by,
    userns_problem,
)


def _expected_default() -> str:
    try:
        pwd.getpwnam(DEFAULT_USER)
        return DEFAULT_USER
    except KeyError:
        return FALLBACK_USER


def test_a_root_worker_defaults_to_the_dedicated_user_or_nobody():
    user, problem = resolve_sandbox_user(None, euid=0)
    assert problem is None and user is not None
    assert user.name == _expected_default() and user.uid != 0 and user.gid != 0


@pytest.mark.parametrize("setting", ["root", "0", "0:0", f"{os.getuid() if os.getuid() else 1}:0"])
def test_root_is_never_accepted(setting):
    user, problem = resolve_sandbox_user(setting, euid=0)
    assert user is None and "must never run as host root" in problem


def test_names_and_numeric_ids_are_accepted():
    nobody = pwd.getpwnam("nobody")
    assert resolve_sandbox_user("nobody", euid=0) == (HostUser("nobody", nobody.pw_uid, nobody.pw_gid), None)
    assert resolve_sandbox_user("4242:4343", euid=0) == (HostUser("4242", 4242, 4343), None)


def test_an_unknown_user_is_a_clear_problem():
    user, problem = resolve_sandbox_user("no-such-user-here", euid=0)
    assert user is None and problem == "GAUNTLET_SANDBOX_USER=no-such-user-here: no such user on this host"


def test_an_unprivileged_worker_runs_the_sandbox_as_itself():
    assert resolve_sandbox_user(None, euid=1000) == (None, None)
    user, problem = resolve_sandbox_user("nobody", euid=1000)
    assert user is None and "needs a root worker" in problem


def test_dropping_clears_groups_capabilities_and_new_privileges():
    argv = drop_prefix(HostUser("sbx", 999, 995))
    assert argv[0].endswith("setpriv") and argv[-1] == "--"
    assert {"--reuid=999", "--regid=995", "--clear-groups", "--inh-caps=-all", "--no-new-privs"} <= set(argv)


def _sysctls(tmp_path: Path, **values: str) -> Path:
    for key, value in values.items():
        path = tmp_path / key.replace(".", "/")
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(value + "\n")
    return tmp_path


def test_userns_sysctls_are_read(tmp_path: Path):
    assert userns_problem(_sysctls(tmp_path / "ok", **{"user.max_user_namespaces": "15000"})) is None
    assert "user.max_user_namespaces = 0" in userns_problem(_sysctls(tmp_path / "a", **{
        "user.max_user_namespaces": "0"}))
    assert "kernel.unprivileged_userns_clone = 0" in userns_problem(_sysctls(tmp_path / "b", **{
        "user.max_user_namespaces": "100", "kernel.unprivileged_userns_clone": "0"}))
    assert "AppArmor" in userns_problem(_sysctls(tmp_path / "c", **{
        "kernel.apparmor_restrict_unprivileged_userns": "1"}))


def test_this_host_allows_user_namespaces():
    assert userns_problem() is None


def test_unreadable_paths_name_the_first_closed_directory():
    user = HostUser("someone", 4242, 4343)
    # Under /tmp itself (world-searchable), not pytest's private base directory.
    base = Path(tempfile.mkdtemp(prefix="sbx-perm-", dir="/tmp"))
    try:
        base.chmod(0o755)
        (base / "open" / "python").mkdir(parents=True)
        (base / "closed" / "python").mkdir(parents=True)
        (base / "closed").chmod(0o700)
        (base / "unlisted").mkdir(mode=0o711)
        assert unreadable_by(str(base / "open" / "python"), user) is None
        assert unreadable_by(str(base / "closed" / "python"), user) == str(base / "closed")
        assert unreadable_by(str(base / "unlisted"), user) == str(base / "unlisted")  # searchable, not readable
        assert unreadable_by(str(base / "missing"), user) == str(base / "missing")
        assert unreadable_by(str(base / "closed" / "python"), HostUser("owner", os.getuid(), os.getgid())) is None
    finally:
        shutil.rmtree(base)
