"""The exact environment every sandboxed process receives.

``sandbox_env(extra)`` is an explicit allowlist: nothing is inherited from the host. It holds
neutral paths that exist only inside the sandbox layout (see ``layout.py``), deterministic
interpreter settings, and a synthetic git identity in the four ``GIT_AUTHOR_*`` /
``GIT_COMMITTER_*`` variables (spec 002: identity pinned in two layers). ``extra`` may add
variables or override allowlisted ones; it can never smuggle in host state because the caller
has to name each variable explicitly.
"""

from __future__ import annotations

from collections.abc import Mapping

from .layout import SANDBOX_HOME, SANDBOX_PYTHON_PREFIX, WORKSPACE
from .types import SandboxInputError

SYNTHETIC_GIT_NAME = "Dev Workstation"
SYNTHETIC_GIT_EMAIL = "dev@workstation.invalid"

SANDBOX_PATH = f"{SANDBOX_PYTHON_PREFIX}/bin:/usr/bin:/bin"

_BASE_ENV: dict[str, str] = {
    "PATH": SANDBOX_PATH,
    "HOME": SANDBOX_HOME,
    "TMPDIR": "/tmp",
    "PWD": WORKSPACE,
    "LANG": "C.UTF-8",
    "LC_ALL": "C.UTF-8",
    "TZ": "UTC",
    "USER": "dev",
    "LOGNAME": "dev",
    "SHELL": "/bin/sh",
    # The interpreter is bound at a neutral prefix; its RUNPATH still names the host prefix,
    # so the loader is pointed at the bound copy of libpython explicitly.
    "LD_LIBRARY_PATH": f"{SANDBOX_PYTHON_PREFIX}/lib",
    "PYTHONDONTWRITEBYTECODE": "1",
    "PYTHONHASHSEED": "0",
    "PYTHONUNBUFFERED": "1",
    "PYTHONNOUSERSITE": "1",
    "NO_COLOR": "1",
    "GIT_AUTHOR_NAME": SYNTHETIC_GIT_NAME,
    "GIT_AUTHOR_EMAIL": SYNTHETIC_GIT_EMAIL,
    "GIT_COMMITTER_NAME": SYNTHETIC_GIT_NAME,
    "GIT_COMMITTER_EMAIL": SYNTHETIC_GIT_EMAIL,
    "GIT_CONFIG_NOSYSTEM": "1",
}

ALLOWLIST: frozenset[str] = frozenset(_BASE_ENV)
GIT_IDENTITY_KEYS = ("GIT_AUTHOR_NAME", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_NAME",
                     "GIT_COMMITTER_EMAIL")


def sandbox_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """Return exactly the allowlisted base environment plus ``extra`` (which wins on clashes)."""
    env = dict(_BASE_ENV)
    for key, value in (extra or {}).items():
        if not isinstance(key, str) or not key or "=" in key or "\0" in key:
            raise SandboxInputError("env_invalid", f"bad variable name {key!r}", field="extra_env")
        if not isinstance(value, str) or "\0" in value:
            raise SandboxInputError("env_invalid", f"bad value for {key}", field="extra_env")
        env[key] = value
    return env
