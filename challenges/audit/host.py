"""The host identity the audit forbids, and the platform paths it must not find.

``detect_host_identity()`` reads who and where the platform runs (login and
account names, the full name in the account record, the host name, and the
email addresses the host's own git would fall back to: ``EMAIL``,
``GIT_*_EMAIL``, ``~/.gitconfig``, ``$XDG_CONFIG_HOME/git/config``), so the
audit can prove none of it reached an agent-visible surface (spec 002, leak
five).  ``default_platform_paths()`` lists substrings that betray the
platform's own tree: the repository root, the var dir, the interpreter prefix
of a virtualenv and the home directory, on top of the generic markers.
"""

from __future__ import annotations

import getpass
import io
import os
import socket
import sys
from dataclasses import dataclass
from pathlib import Path

from dulwich.config import ConfigFile

from challenges.audit.target import DEFAULT_PLATFORM_MARKERS

REPO_ROOT = Path(__file__).resolve().parents[2]
# Home directories too generic to be a signal (they name no person).
GENERIC_HOMES = frozenset({"/", "/tmp", "/nonexistent"})


@dataclass(frozen=True)
class HostIdentity:
    names: tuple[str, ...]
    emails: tuple[str, ...]


def _git_config_identity(path: Path) -> tuple[list[str], list[str]]:
    try:
        config = ConfigFile.from_file(io.BytesIO(path.read_bytes()))
    except (OSError, ValueError, KeyError):
        return [], []
    names, emails = [], []
    for key, bucket in ((b"name", names), (b"email", emails)):
        try:
            bucket.append(config.get((b"user",), key).decode("utf-8", "replace"))
        except KeyError:
            pass
    return names, emails


def detect_host_identity(environ: dict[str, str] | None = None, home: Path | None = None) -> HostIdentity:
    env = dict(os.environ if environ is None else environ)
    names: list[str] = []
    emails: list[str] = []
    try:
        names.append(getpass.getuser())
    except (KeyError, OSError):
        pass
    try:
        import pwd

        record = pwd.getpwuid(os.getuid())
        names.append(record.pw_name)
        gecos = record.pw_gecos.split(",")[0].strip()
        if gecos:
            names.append(gecos)
    except (ImportError, KeyError):
        pass
    names.append(socket.gethostname())
    for key in ("EMAIL", "GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"):
        if env.get(key):
            emails.append(env[key])
    for key in ("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"):
        if env.get(key):
            names.append(env[key])
    base = home if home is not None else Path(os.path.expanduser("~"))
    xdg = Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else base / ".config"
    for path in (base / ".gitconfig", xdg / "git" / "config"):
        found_names, found_emails = _git_config_identity(path)
        names += found_names
        emails += found_emails
    clean_names = tuple(sorted({n.strip() for n in names if n and n.strip()}))
    clean_emails = tuple(sorted({e.strip().lower() for e in emails if e and "@" in e}))
    return HostIdentity(clean_names, clean_emails)


def default_platform_paths(repo_root: Path | None = None, var_dir: Path | None = None) -> tuple[str, ...]:
    """Generic markers plus this installation's concrete paths (each with a trailing ``/``)."""
    found: list[str] = list(DEFAULT_PLATFORM_MARKERS)
    root = (repo_root or REPO_ROOT).resolve()
    found.append(str(root) + "/")
    if var_dir is not None:
        found.append(str(Path(var_dir).resolve()) + "/")
    if sys.prefix != sys.base_prefix:
        found.append(str(Path(sys.prefix).resolve()) + "/")
    home = os.path.expanduser("~")
    if home and home not in GENERIC_HOMES:
        found.append(home.rstrip("/") + "/")
    return tuple(dict.fromkeys(found))
