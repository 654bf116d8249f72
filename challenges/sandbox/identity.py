"""Who the code under test is on the host, and whether the host can sandbox it unprivileged.

bubblewrap maps the sandbox's user to the uid that *starts* it. Started by a root worker, code
under test would be host root behind a few namespaces (non-namespaced /proc/sys writable, one
kernel bug from the host). So a root worker drops to an unprivileged host user first, with
supplementary groups cleared, no capabilities and no_new_privs, through util-linux ``setpriv``
exec'd before bubblewrap (no Python runs between fork and exec). A worker that already runs
unprivileged runs the sandbox as itself.

``GAUNTLET_SANDBOX_USER`` names that user (a name, ``uid`` or ``uid:gid``). Unset, a root
worker uses the dedicated system user ``gauntlet-sandbox`` that the setup creates, else
``nobody``; never root. The user needs no home, shell or files: the run's workspace is copied
into the sandbox, so no host path has to be writable by it.

Unprivileged bubblewrap needs unprivileged user namespaces; ``userns_problem`` reads the
sysctls that switch them off, so the platform can refuse with the knob to turn.
"""

from __future__ import annotations

import os
import pwd
import shutil
import stat
from dataclasses import dataclass
from pathlib import Path

USER_SETTING = "GAUNTLET_SANDBOX_USER"
DEFAULT_USER = "gauntlet-sandbox"
FALLBACK_USER = "nobody"
# Where the trusted helpers are looked up, whatever the worker's own PATH.
SYSTEM_PATH = "/usr/bin:/bin:/usr/sbin:/sbin"
CREATE_USER_HINT = f"useradd --system --no-create-home --home-dir /nonexistent --shell /usr/sbin/nologin {DEFAULT_USER}"


@dataclass(frozen=True)
class HostUser:
    """The unprivileged host identity a root worker drops to before starting bubblewrap."""

    name: str
    uid: int
    gid: int


def _lookup(spec: str) -> HostUser | None:
    if spec.replace(":", "").isdigit() and spec.count(":") <= 1:
        uid_text, _, gid_text = spec.partition(":")
        uid = int(uid_text)
        try:
            entry = pwd.getpwuid(uid)
            name, default_gid = entry.pw_name, entry.pw_gid
        except KeyError:
            name, default_gid = str(uid), uid
        return HostUser(name, uid, int(gid_text) if gid_text else default_gid)
    try:
        entry = pwd.getpwnam(spec)
    except KeyError:
        return None
    return HostUser(entry.pw_name, entry.pw_uid, entry.pw_gid)


def resolve_sandbox_user(setting: str | None, *, euid: int) -> tuple[HostUser | None, str | None]:
    """(user to drop to or None to run as the worker itself, problem or None)."""
    setting = (setting or "").strip() or None
    if euid != 0:
        if setting is not None:
            wanted = _lookup(setting)
            if wanted is None or wanted.uid != euid:
                return None, (f"{USER_SETTING}={setting} needs a root worker to switch to it; this worker "
                              f"runs as uid {euid}: run the worker as that user instead, or unset {USER_SETTING}")
        return None, None
    if setting is not None:
        user = _lookup(setting)
        if user is None:
            return None, f"{USER_SETTING}={setting}: no such user on this host"
    else:
        user = _lookup(DEFAULT_USER) or _lookup(FALLBACK_USER)
        if user is None:
            return None, (f"the worker runs as root and neither {DEFAULT_USER} nor {FALLBACK_USER} exists to run "
                          f"the code under test: create one ({CREATE_USER_HINT}) or set {USER_SETTING}")
    if user.uid == 0 or user.gid == 0:
        return None, (f"{USER_SETTING}={setting} is root (uid {user.uid}, gid {user.gid}): code under test must "
                      "never run as host root; name an unprivileged user")
    return user, None


def setpriv_path() -> str | None:
    return shutil.which("setpriv", path=SYSTEM_PATH)


def drop_prefix(user: HostUser) -> list[str]:
    """argv prefix that becomes ``user`` for good before exec'ing the rest (see module docstring)."""
    setpriv = setpriv_path() or "setpriv"
    return [setpriv, f"--reuid={user.uid}", f"--regid={user.gid}", "--clear-groups", "--inh-caps=-all",
            "--no-new-privs", "--"]


def _read_int(path: Path) -> int | None:
    try:
        return int(path.read_text().strip())
    except (OSError, ValueError):
        return None


def userns_problem(proc_sys: Path = Path("/proc/sys")) -> str | None:
    """Why unprivileged user namespaces are unavailable here, or None when the sysctls allow them."""
    limit = _read_int(proc_sys / "user" / "max_user_namespaces")
    if limit == 0:
        return ("user namespaces are disabled on this host (user.max_user_namespaces = 0); the unprivileged "
                "sandbox needs them: sysctl -w user.max_user_namespaces=15000")
    if _read_int(proc_sys / "kernel" / "unprivileged_userns_clone") == 0:
        return ("unprivileged user namespaces are disabled on this host (kernel.unprivileged_userns_clone = 0); "
                "the unprivileged sandbox needs them: sysctl -w kernel.unprivileged_userns_clone=1")
    if _read_int(proc_sys / "kernel" / "apparmor_restrict_unprivileged_userns") == 1:
        return ("AppArmor restricts unprivileged user namespaces on this host "
                "(kernel.apparmor_restrict_unprivileged_userns = 1): give bwrap an AppArmor profile that allows "
                "userns, or set the sysctl to 0")
    return None


def unreadable_by(path: str, user: HostUser) -> str | None:
    """The first component of ``path`` that ``user`` cannot traverse or read, or None.

    bubblewrap resolves bind sources as the dropped user, so a Python installed under a
    private home (``/root/.pyenv``) cannot be bound.
    """
    current = Path("/")
    parts = Path(path).parts[1:]
    for index, part in enumerate([None, *parts]):
        if part is not None:
            current = current / part
        try:
            info = os.stat(current)
        except OSError:
            return str(current)
        need = stat.S_IXOTH | (stat.S_IROTH if index == len(parts) else 0)
        if info.st_uid == user.uid:
            mode = (info.st_mode >> 6) & 0o7
        elif info.st_gid == user.gid:
            mode = (info.st_mode >> 3) & 0o7
        else:
            mode = info.st_mode & 0o7
        if (mode & need) != need:
            return str(current)
    return None
