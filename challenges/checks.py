"""``manage.py check --deploy``: would the evaluation worker run code under test safely here?

The checks look at this host as a worker started with the same environment would: the user the
sandbox would run as, whether the worker itself is root, the memory cgroup, bubblewrap and user
namespaces, the unsafe switch.
They warn; the sandbox itself refuses to evaluate when isolation is missing (see
``challenges.sandbox.core.check_available``).
"""

from __future__ import annotations

import os

from django.conf import settings
from django.core import checks

SECURITY_DOC = "see SECURITY.md, section Sandbox"


@checks.register(checks.Tags.security, deploy=True)
def sandbox_isolation_check(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    from challenges.sandbox.core import cgroup_problem, sandbox_problem
    from challenges.sandbox.identity import CREATE_USER_HINT, FALLBACK_USER, USER_SETTING
    from challenges.sandbox.layout import HostLayout

    layout = HostLayout()
    unsafe = bool(getattr(settings, "GAUNTLET_SANDBOX_ALLOW_UNSAFE", False))
    root = os.geteuid() == 0
    messages: list[checks.CheckMessage] = []
    if unsafe:
        messages.append(checks.Warning(
            "GAUNTLET_SANDBOX_ALLOW_UNSAFE is on: when full isolation is missing, code under test runs with "
            "whatever isolation remains (without bubblewrap: directly on the host).",
            hint=f"Turn it off in production; {SECURITY_DOC}.", id="gauntlet.sandbox.W004"))
    problem = sandbox_problem(layout)
    # Unsafe mode with the sandbox unavailable runs the code directly, as this process's user.
    as_root = root and (layout.run_as is None or (unsafe and problem is not None))
    if as_root:
        messages.append(checks.Warning(
            f"The evaluation worker would run the code under test as host root: {problem}",
            hint=f"Create the sandbox user ({CREATE_USER_HINT}) or set {USER_SETTING}, keep the unsafe mode off; "
                 f"{SECURITY_DOC}.", id="gauntlet.sandbox.W001"))
    elif root:
        # The code under test does not run as root here, but everything before it does: copying the
        # workspace, git parsing and applying the agent's patch, writing the hidden tests, and the
        # workspace cache's read-only modes do not bind root.
        messages.append(checks.Warning(
            "The evaluation worker runs as host root: the code under test drops to "
            f"'{layout.run_as.name}', but tree preparation (git parsing and applying each agent's patch) "
            "runs as root, and root ignores the workspace cache's read-only modes.",
            hint="Run the worker as an unprivileged service user with a delegated cgroup (systemd User= and "
                 f"Delegate=); {SECURITY_DOC}.", id="gauntlet.sandbox.W005"))
    if problem and not as_root:
        outcome = "runs code under test without full isolation" if unsafe else "refuses every evaluation"
        messages.append(checks.Warning(
            f"The evaluation sandbox is unavailable, so the worker {outcome}: {problem}",
            hint=SECURITY_DOC, id="gauntlet.sandbox.W003"))
    memory = cgroup_problem(layout) if not problem else None
    if memory is not None or "memory" not in (layout.cgroups.controllers if layout.cgroups else ()):
        messages.append(checks.Warning(
            f"Code under test would run without a memory cap: {memory or layout.cgroup_problem}",
            hint=f"Delegate a cgroup to the worker (systemd Delegate=yes) or set GAUNTLET_SANDBOX_CGROUP; "
                 f"{SECURITY_DOC}.", id="gauntlet.sandbox.W002"))
    if root and layout.run_as is not None and layout.run_as.name == FALLBACK_USER:
        messages.append(checks.Info(
            f"Code under test runs as the shared '{FALLBACK_USER}' user.",
            hint=f"A dedicated user isolates it from other services running as {FALLBACK_USER}: {CREATE_USER_HINT}.",
            id="gauntlet.sandbox.I001"))
    return messages
