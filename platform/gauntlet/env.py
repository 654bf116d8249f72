"""Typed readers for settings that come from the environment.

Kept free of Django imports so settings can use them before Django is configured.
"""

from __future__ import annotations

import os
from pathlib import Path


class ImproperlyConfiguredEnv(RuntimeError):
    """A required environment variable is missing or malformed."""


def env_str(name: str, default: str | None = None) -> str | None:
    value = os.environ.get(name)
    return default if value is None or value == "" else value


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    lowered = value.strip().lower()
    if lowered in {"1", "true", "yes", "on"}:
        return True
    if lowered in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfiguredEnv(f"{name} must be a boolean (1/0, true/false, yes/no, on/off), got {value!r}")


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    try:
        return int(value)
    except ValueError as exc:
        raise ImproperlyConfiguredEnv(f"{name} must be an integer, got {value!r}") from exc


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return list(default)
    return [part.strip() for part in value.split(",") if part.strip()]


def secret_from_env_or_file(name: str, *, debug: bool, fallback_file: Path) -> str | None:
    """Read a secret from ``name``; in DEBUG only, fall back to a local key file.

    Production (DEBUG off) must get the secret from the environment; a missing value is
    a configuration error rather than a silently generated or default secret.
    """
    value = env_str(name)
    if value:
        return value
    if debug and fallback_file.exists():
        return fallback_file.read_text().strip()
    if debug:
        return None
    raise ImproperlyConfiguredEnv(f"{name} is required when GAUNTLET_DEBUG is off")
