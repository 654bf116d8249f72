"""Unified diffs that apply with both ``git apply`` and ``patch -p1``."""

from __future__ import annotations

import difflib
import re


def unified_diff(before: dict[str, str], after: dict[str, str], *, context: int = 3) -> str:
    """Diff of every path whose text differs (modifications only; paths must exist in both)."""
    chunks: list[str] = []
    for path in sorted(set(before) | set(after)):
        old, new = before.get(path), after.get(path)
        if old == new:
            continue
        if old is None or new is None:
            raise ValueError(f"patches only modify existing files: {path}")
        body = list(difflib.unified_diff(
            old.splitlines(keepends=True), new.splitlines(keepends=True),
            fromfile=f"a/{path}", tofile=f"b/{path}", n=context,
        ))
        fixed = []
        for line in body:
            if not line.endswith("\n"):
                line += "\n\\ No newline at end of file\n"
            fixed.append(line)
        chunks.append(f"diff --git a/{path} b/{path}\n" + "".join(fixed))
    return "".join(chunks)


def changed_paths(patch: str) -> list[str]:
    return [line[len("diff --git a/"):].split(" b/", 1)[0] for line in patch.splitlines()
            if line.startswith("diff --git a/")]


class PatchError(ValueError):
    """A patch does not apply to the given files."""


_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


def apply_patch(files: dict[str, str], patch: str) -> dict[str, str]:
    """Apply a unified diff (as made by ``unified_diff``) strictly: every hunk's
    context and removed lines must match at the stated position.  Returns the
    changed files only."""
    out: dict[str, str] = {}
    lines = patch.splitlines(keepends=True)
    index = 0
    while index < len(lines):
        if not lines[index].startswith("--- a/"):
            index += 1
            continue
        path = lines[index][len("--- a/"):].rstrip("\n")
        if path not in files:
            raise PatchError(f"{path}: not in the workspace")
        source = files[path].splitlines(keepends=True)
        result: list[str] = []
        cursor = 0
        index += 2  # past ---/+++
        while index < len(lines) and lines[index].startswith("@@"):
            match = _HUNK.match(lines[index])
            if match is None:
                raise PatchError(f"{path}: malformed hunk header {lines[index]!r}")
            start = int(match.group(1)) - 1 if match.group(2) != "0" else int(match.group(1))
            result.extend(source[cursor:start])
            cursor = start
            index += 1
            while index < len(lines) and lines[index][:1] in (" ", "-", "+", "\\"):
                tag, text = lines[index][:1], lines[index][1:]
                if tag == "\\":
                    if result and result[-1].endswith("\n"):
                        result[-1] = result[-1][:-1]
                elif tag in " -":
                    if cursor >= len(source) or source[cursor].rstrip("\n") != text.rstrip("\n"):
                        raise PatchError(f"{path}: hunk does not match at line {cursor + 1}")
                    if tag == " ":
                        result.append(source[cursor])
                    cursor += 1
                else:
                    result.append(text)
                index += 1
        result.extend(source[cursor:])
        out[path] = "".join(result)
    return out
