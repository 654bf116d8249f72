"""Check 5: the environment handed to spawned processes is exactly the allowlist."""

from __future__ import annotations

import json

import pytest

from challenges.audit import AuditTarget, run_audit
from challenges.sandbox import ALLOWLIST, run, sandbox_env
from challenges.sandbox.env import SYNTHETIC_GIT_EMAIL, SYNTHETIC_GIT_NAME
from tests.unit.audit.conftest import make_context

EXPECTED = {"GIT_AUTHOR_NAME": SYNTHETIC_GIT_NAME, "GIT_AUTHOR_EMAIL": SYNTHETIC_GIT_EMAIL,
            "GIT_COMMITTER_NAME": SYNTHETIC_GIT_NAME, "GIT_COMMITTER_EMAIL": SYNTHETIC_GIT_EMAIL}


def audit(env, **context):
    context.setdefault("env_allowlist", frozenset(ALLOWLIST))
    context.setdefault("env_expected", EXPECTED)
    return run_audit(AuditTarget(environment=env), make_context(**context))


def test_sandbox_env_passes_every_check():
    assert audit(sandbox_env()).findings == ()


def test_inherited_variable_is_caught():
    env = {**sandbox_env(), "SSH_AUTH_SOCK": "/tmp/ssh-agent.sock", "DJANGO_SETTINGS_MODULE": "config.settings"}
    findings = audit(env).findings
    assert [(f.code, f.location) for f in findings] == [("env_extra", "env DJANGO_SETTINGS_MODULE"),
                                                       ("env_extra", "env SSH_AUTH_SOCK")]


def test_missing_identity_variable_is_caught():
    env = sandbox_env()
    del env["GIT_COMMITTER_EMAIL"]
    assert [(f.code, f.location) for f in audit(env).findings] == [("env_missing", "env GIT_COMMITTER_EMAIL")]


def test_host_identity_in_an_allowlisted_variable_is_caught():
    env = {**sandbox_env(), "GIT_AUTHOR_EMAIL": "alice.mercer@corp.example"}
    codes = {(f.check, f.code) for f in audit(env).findings}
    assert codes == {("environment", "env_value"), ("git", "host_email")}


def test_platform_path_in_the_environment_is_caught():
    env = {**sandbox_env(), "PATH": "/srv/gauntlet/bin:/usr/bin"}
    # The platform's name is harness vocabulary as well as part of the path.
    assert {(f.check, f.code) for f in audit(env).findings} == {("separation", "platform_path"),
                                                                ("markers", "harness_vocabulary")}


def test_environment_without_allowlist_is_a_finding():
    findings = run_audit(AuditTarget(environment={"PATH": "/usr/bin"}), make_context()).findings
    assert [f.code for f in findings] == ["env_allowlist_undeclared"]


@pytest.mark.slow
def test_dumped_child_environment_audits_clean(tmp_path):
    """Dump what a sandboxed process really receives, and audit that."""
    workdir = tmp_path / "ws"
    workdir.mkdir()
    result = run(["python3", "-c", "import json, os; print(json.dumps(dict(os.environ)))"], workdir=workdir)
    assert result.returncode == 0, result.stderr
    report = audit(json.loads(result.stdout))
    assert report.findings == (), report.render()
