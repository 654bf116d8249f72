"""Production settings pass ``manage.py check --deploy`` with nothing serious."""

import os
import re
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]


def _run(env_extra):
    env = {"PATH": "/usr/bin:/bin", "GAUNTLET_VAR_DIR": str(ROOT / "var"), **env_extra}
    return subprocess.run(
        [sys.executable, str(ROOT / "manage.py"), "check", "--deploy", "--fail-level", "WARNING"],
        capture_output=True, text=True, cwd=ROOT, env=env, timeout=120,
    )


def test_production_settings_pass_deploy_checks():
    result = _run({
        "GAUNTLET_SECRET_KEY": secrets.token_urlsafe(50),
        "GAUNTLET_ENCRYPTION_KEYS": "pk0dLd0cFYtKo6eQH7o1kwvPXDG1dJ3p0zVfJb5rC4s=",
    })
    output = result.stdout + result.stderr
    if os.geteuid() == 0:
        # Whatever the settings, a worker running as root is warned about, and nothing else is.
        assert result.returncode != 0, output
        assert set(re.findall(r"\(([\w.]+\.[WE]\d{3})\)", output)) == {"gauntlet.sandbox.W005"}, output
        assert "runs as host root" in output
    else:
        assert result.returncode == 0, output
        assert "no issues" in result.stdout


def test_production_refuses_to_start_without_secret_key():
    result = _run({"GAUNTLET_ENCRYPTION_KEYS": "pk0dLd0cFYtKo6eQH7o1kwvPXDG1dJ3p0zVfJb5rC4s="})
    assert result.returncode != 0
    assert "GAUNTLET_SECRET_KEY is required" in result.stderr
