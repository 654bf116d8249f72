"""Check 5, environment: the environment given to spawned processes is exactly the allowlist.

Runs when the target carries an environment (``AuditTarget.environment``, e.g.
``sandbox_env()`` as the sandbox would pass it).  ``env_extra``: a variable not
on the allowlist (inherited host state); ``env_missing``: an allowlisted
variable that is absent (the synthetic git identity, for instance);
``env_value``: a variable whose value differs from ``AuditContext.env_expected``;
``env_allowlist_undeclared``: an environment was given but no allowlist to
compare it with.
"""

from __future__ import annotations

from challenges.audit.findings import Finding
from challenges.audit.surface import Surface
from challenges.audit.target import AuditContext

NAME = "environment"
NUMBER = 5


def run(surface: Surface, context: AuditContext) -> list[Finding]:
    env = surface.environment
    if env is None:
        return []
    if context.env_allowlist is None:
        return [Finding(NAME, "env_allowlist_undeclared", "an environment was given without an allowlist",
                        "environment")]
    findings: list[Finding] = []
    for key in sorted(set(env) - set(context.env_allowlist)):
        findings.append(Finding(NAME, "env_extra", f"variable {key} is not on the allowlist", f"env {key}"))
    for key in sorted(set(context.env_allowlist) - set(env)):
        findings.append(Finding(NAME, "env_missing", f"allowlisted variable {key} is absent", f"env {key}"))
    for key, expected in sorted(context.env_expected.items()):
        if key in env and env[key] != expected:
            findings.append(Finding(NAME, "env_value", f"{key} differs from its expected value", f"env {key}"))
    return findings
