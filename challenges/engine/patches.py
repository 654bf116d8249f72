"""Unified diffs that apply with both ``git apply`` and ``patch -p1``."""

from __future__ import annotations

import difflib


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
