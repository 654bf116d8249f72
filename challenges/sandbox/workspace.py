"""Copying a run's tree into the sandbox's size-capped /workspace.

The sandbox never bind-mounts a host directory read-write. The caller's tree is packed into an
anonymous in-memory file (``memfd``) by the worker, passed to the sandbox as an inherited fd
and unpacked into a tmpfs of ``Limits.workspace_mb`` by a trusted launcher before the command
starts; the launcher closes the fd, so the command inherits nothing but its own streams.

What that buys:
- nothing the code under test writes reaches the host disk, and all it writes is capped
  (tmpfs ``size=``, charged to the run's memory cgroup);
- the host tree can stay private to the worker (no permissions to hand to the sandbox user);
- the mount table inside shows a tmpfs at /workspace, not the host path of the tree.

The tree must contain only directories, regular files and symlinks (a symlink is copied as a
symlink and resolves inside the sandbox); anything else is refused, as is a tree larger than
the workspace.
"""

from __future__ import annotations

import os
import stat
import tarfile
from pathlib import Path

from .types import SandboxInputError

_MB = 1024 * 1024
# tar headers and directory entries use some space beyond the file bytes themselves.
_OVERHEAD_PER_ENTRY = 4096

# Runs inside the sandbox as its first process: unpack, close the fd, become the command.
# bash (not dash) because only bash closes an fd above 9; its exec exports SHLVL, which env
# drops so the command's environment stays exactly the allowlist.
LAUNCHER = ('n=$1; shift; tar -x -p -f - -C /workspace <&"$n" || exit 125; exec {n}<&-; '
            'exec /usr/bin/env -u SHLVL -- "$@"')
LAUNCHER_SHELL = "/usr/bin/bash"


def _refuse(path: str, why: str) -> SandboxInputError:
    return SandboxInputError("workdir_invalid", f"{path}: {why}", field="workdir")


def pack(root: Path, *, limit_mb: int) -> int:
    """Return an inheritable fd of an in-memory tar of ``root``'s contents, positioned at 0."""
    fd = os.memfd_create("ws", os.MFD_CLOEXEC)
    try:
        with os.fdopen(os.dup(fd), "wb") as raw, tarfile.open(fileobj=raw, mode="w", format=tarfile.GNU_FORMAT) as tar:
            budget = limit_mb * _MB
            used = 0
            top = os.fspath(root)
            for dirpath, dirnames, filenames in os.walk(top, followlinks=False):
                prefix = os.path.relpath(dirpath, top)
                prefix = "" if prefix == "." else prefix + "/"
                for name in sorted(dirnames) + sorted(filenames):
                    path = os.path.join(dirpath, name)
                    info = os.lstat(path)
                    entry = tarfile.TarInfo(prefix + name)
                    entry.mode = stat.S_IMODE(info.st_mode)
                    entry.mtime = int(info.st_mtime)
                    regular = stat.S_ISREG(info.st_mode)
                    if regular:
                        entry.size = info.st_size
                    elif stat.S_ISDIR(info.st_mode):
                        entry.type = tarfile.DIRTYPE
                    elif stat.S_ISLNK(info.st_mode):
                        entry.type = tarfile.SYMTYPE
                        entry.linkname = os.readlink(path)
                    else:
                        raise _refuse(entry.name, "only directories, regular files and symlinks can be copied "
                                                  "into the sandbox")
                    used += entry.size + _OVERHEAD_PER_ENTRY
                    if used > budget:
                        raise SandboxInputError(
                            "workspace_too_large",
                            f"the tree does not fit the {limit_mb} MiB workspace", field="workdir")
                    if not regular:
                        tar.addfile(entry)
                        continue
                    # No-follow open: the tree may be swapped for a link between lstat and open.
                    with open(os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC), "rb") as handle:
                        tar.addfile(entry, handle)
        os.lseek(fd, 0, os.SEEK_SET)
        os.set_inheritable(fd, True)
        return fd
    except BaseException:
        os.close(fd)
        raise
