"""The sandboxed environment is exactly the allowlist (issue 5, audit item 5)."""

from __future__ import annotations

import json
import os
import warnings
from pathlib import Path

import pytest

from challenges.sandbox import ALLOWLIST, HostLayout, SandboxInputError, run, sandbox_env
from challenges.sandbox.core import default_layout, unsafe_env
from challenges.sandbox.env import GIT_IDENTITY_KEYS, SYNTHETIC_GIT_EMAIL, SYNTHETIC_GIT_NAME

DUMP_ENV = ["python3", "-c", "import json, os; print(json.dumps(dict(os.environ)))"]
PLANTED = {"GAUNTLET_SECRET_KEY": "s3cr3t-host-key", "HOSTNAME": "build-host-7",
           "USER": "hostuser", "DATABASE_URL": "postgres://admin:pw@db/gauntlet",
           "PYTHONPATH": "/work/main", "LD_PRELOAD": "/tmp/evil.so"}


def _dump(result) -> dict[str, str]:
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)


def test_sandbox_env_is_exactly_the_allowlist():
    env = sandbox_env()
    assert set(env) == set(ALLOWLIST)
    assert env["PATH"] == "/opt/python/bin:/usr/bin:/bin"
    assert env["HOME"] == "/tmp" and env["PWD"] == "/workspace"
    assert env["LANG"] == "C.UTF-8" and env["TZ"] == "UTC"
    assert env["PYTHONDONTWRITEBYTECODE"] == "1" and env["PYTHONHASHSEED"] == "0"


def test_git_identity_is_synthetic_and_complete():
    env = sandbox_env()
    assert {k: env[k] for k in GIT_IDENTITY_KEYS} == {
        "GIT_AUTHOR_NAME": SYNTHETIC_GIT_NAME, "GIT_AUTHOR_EMAIL": SYNTHETIC_GIT_EMAIL,
        "GIT_COMMITTER_NAME": SYNTHETIC_GIT_NAME, "GIT_COMMITTER_EMAIL": SYNTHETIC_GIT_EMAIL}
    assert SYNTHETIC_GIT_EMAIL.endswith(".invalid")


def test_extra_env_adds_and_overrides_only_what_it_names():
    env = sandbox_env({"FEATURE_FLAG": "on", "TZ": "Europe/Paris"})
    assert env["FEATURE_FLAG"] == "on" and env["TZ"] == "Europe/Paris"
    assert set(env) == set(ALLOWLIST) | {"FEATURE_FLAG"}


@pytest.mark.parametrize("bad", [{"": "x"}, {"A=B": "x"}, {"OK": "nul\0"}, {"OK": 3}])
def test_extra_env_rejects_malformed_entries(bad):
    with pytest.raises(SandboxInputError) as info:
        sandbox_env(bad)
    assert info.value.code == "env_invalid" and info.value.field == "extra_env"


def test_child_environment_equals_allowlist_exactly(workdir: Path):
    assert _dump(run(DUMP_ENV, workdir=workdir)) == sandbox_env()


def test_child_environment_includes_extra_env(workdir: Path):
    got = _dump(run(DUMP_ENV, workdir=workdir, extra_env={"APP_MODE": "test"}))
    assert got == sandbox_env({"APP_MODE": "test"})


def test_planted_host_variables_never_reach_the_child(workdir: Path, monkeypatch):
    for key, value in PLANTED.items():
        monkeypatch.setenv(key, value)
    result = run(["sh", "-c", "env; cat /proc/self/environ"], workdir=workdir)
    assert result.returncode == 0
    for key, value in PLANTED.items():
        assert value not in result.stdout, key
    got = _dump(run(DUMP_ENV, workdir=workdir))
    assert got == sandbox_env()


def test_unsafe_mode_environment_is_scrubbed_too(workdir: Path, monkeypatch):
    for key, value in PLANTED.items():
        monkeypatch.setenv(key, value)
    layout = HostLayout(bwrap_path=None)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        got = _dump(run(DUMP_ENV, workdir=workdir, layout=layout, allow_unsafe=True))
    assert set(got) == set(ALLOWLIST)
    for key in set(ALLOWLIST) - {"PATH", "LD_LIBRARY_PATH", "PWD", "HOME", "TMPDIR"}:
        assert got[key] == sandbox_env()[key]
    assert got["PWD"] == str(workdir.resolve())
    assert not set(PLANTED.values()) & set(got.values())


def test_unsafe_env_repoints_paths_at_the_host_layout(tmp_path: Path):
    layout = default_layout()
    env = unsafe_env(sandbox_env(), layout, tmp_path, "/tmp/h")
    assert env["PATH"].split(os.pathsep)[0] == f"{layout.python_prefix}/bin"
    assert env["HOME"] == env["TMPDIR"] == "/tmp/h"
    assert set(env) == set(ALLOWLIST)
