"""Checks on a submitted unified diff before anything runs it (pure, no Django).

Refuses, with a stable code each: an empty patch, one over the size limit, binary
content, and any path that could leave the workspace (absolute, ``..``, a backslash or
NUL, a symlink mode, a path inside ``.git``). Whether the patch applies is checked
afterwards against the real workspace with ``git apply --check``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

DEFAULT_MAX_BYTES = 256 * 1024

_HEADER = re.compile(r"^(---|\+\+\+) (?P<path>\S+)")
_GIT_HEADER = re.compile(r"^diff --git (?P<a>\S+) (?P<b>\S+)$")
_MODE = re.compile(r"^(new file mode|deleted file mode|old mode|new mode) (?P<mode>\d+)$")
_RENAME = re.compile(r"^(rename|copy) (from|to) (?P<path>.+)$")


@dataclass(frozen=True)
class PatchRejected(Exception):
    code: str
    message: str
    path: str | None = None

    def __str__(self) -> str:
        return self.message


def _strip_prefix(path: str) -> str:
    if path == "/dev/null":
        return path
    if path.startswith(("a/", "b/")):
        return path[2:]
    return path


def _check_path(raw: str) -> str:
    path = _strip_prefix(raw)
    if path == "/dev/null":
        return path
    if path.startswith("/") or "\\" in path or "\x00" in path:
        raise PatchRejected("patch_path_outside", f"Path {raw!r} is absolute or malformed.", raw)
    parts = path.split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise PatchRejected("patch_path_outside", f"Path {raw!r} leaves the workspace or is not normalised.", raw)
    if parts[0] == ".git":
        raise PatchRejected("patch_path_outside", f"Path {raw!r} is inside the repository metadata.", raw)
    return path


def check_patch(text: str, *, max_bytes: int = DEFAULT_MAX_BYTES) -> list[str]:
    """Validate ``text`` as a safe unified diff; return the workspace paths it touches."""
    if not text or not text.strip():
        raise PatchRejected("patch_empty", "The patch is empty.")
    size = len(text.encode("utf-8"))
    if size > max_bytes:
        raise PatchRejected("patch_too_large", f"The patch is {size} bytes; the limit is {max_bytes}.")
    if "\x00" in text or "GIT binary patch" in text or re.search(r"^Binary files .* differ$", text, re.M):
        raise PatchRejected("patch_binary", "Binary patches are not accepted; submit a text unified diff.")
    touched: list[str] = []
    saw_hunk = False
    for line in text.splitlines():
        if line.startswith("@@"):
            saw_hunk = True
            continue
        if match := _GIT_HEADER.match(line):
            _check_path(match.group("a"))
            _check_path(match.group("b"))
        elif (match := _MODE.match(line)) and match.group("mode") in {"120000", "160000"}:
            raise PatchRejected("patch_symlink", "Patches may not create symbolic links or submodules.")
        elif match := _RENAME.match(line):
            _check_path(match.group("path"))
        elif line.startswith(("--- ", "+++ ")) and (match := _HEADER.match(line)):
            path = _check_path(match.group("path"))
            if path != "/dev/null" and path not in touched:
                touched.append(path)
    if not saw_hunk or not touched:
        raise PatchRejected("patch_malformed", "This is not a unified diff (no file headers or hunks found).")
    return touched
