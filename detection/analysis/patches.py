"""Unified diffs: apply them in memory and find the functions they change.

A submission is a unified diff against the challenge workspace. Comparing whole
workspaces would let the (identical) unchanged code swamp the signal, so the
analysed unit is the set of functions the patch changes, taken from the
*patched* files: :func:`changed_functions` applies the patch
(:func:`apply_patch`, strict context match, hunks may sit at an offset like
``patch`` allows), maps every added line – and the position of every removed
line (the line before it) – to the innermost enclosing function, and lowers those functions into one
tree. A change outside any function contributes its top-level statement. The
raw diff is analysed separately by :mod:`.ngrams`.

The workspace is a mapping ``path → text`` (use :func:`read_workspace` for a
directory); nothing is written to disk.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from tree_sitter import Node as TSNode

from .errors import PatchError
from .languages import get_language, language_for_extension, lowerer_for, parser_for
from .parsing import ParseFailure, _first_error
from .tree import Node

_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


@dataclass
class Hunk:
    old_start: int
    lines: list[str] = field(default_factory=list)  # with their ' ', '-', '+' markers


@dataclass
class FilePatch:
    old_path: str | None
    new_path: str | None
    hunks: list[Hunk] = field(default_factory=list)

    @property
    def path(self) -> str:
        return self.new_path or self.old_path or ""


def _strip_prefix(path: str) -> str | None:
    path = path.split("\t")[0].strip()
    if path == "/dev/null":
        return None
    if path.startswith(("a/", "b/")):
        return path[2:]
    return path


def parse_patch(patch: str) -> list[FilePatch]:
    files: list[FilePatch] = []
    current: FilePatch | None = None
    lines = patch.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("--- ") and i + 1 < len(lines) and lines[i + 1].startswith("+++ "):
            current = FilePatch(_strip_prefix(line[4:]), _strip_prefix(lines[i + 1][4:]))
            files.append(current)
            i += 2
            continue
        match = _HUNK.match(line)
        if match:
            if current is None:
                raise PatchError(f"hunk at line {i + 1} before any file header", field="patch")
            hunk = Hunk(int(match.group(1)))
            old_left = int(match.group(2) or "1")
            new_left = int(match.group(4) or "1")
            i += 1
            while i < len(lines) and (old_left > 0 or new_left > 0):
                body = lines[i]
                if body.startswith("\\"):
                    i += 1
                    continue
                marker = body[:1] or " "
                if marker not in " +-":
                    raise PatchError(f"unexpected line {i + 1} inside a hunk: {body[:40]!r}", field="patch")
                hunk.lines.append(marker + body[1:])
                if marker in " -":
                    old_left -= 1
                if marker in " +":
                    new_left -= 1
                i += 1
            current.hunks.append(hunk)
            continue
        i += 1
    if not files:
        raise PatchError("no file changes found in the patch", field="patch")
    return files


@dataclass(frozen=True)
class AppliedPatch:
    files: dict[str, str]
    changed_lines: dict[str, set[int]]  # path -> 1-based lines of the patched file
    # original path -> 1-based lines of the original file the patch removes or inserts at
    original_lines: dict[str, set[int]] = field(default_factory=dict)


def _find(lines: list[str], needle: list[str], guess: int) -> int | None:
    if not needle:
        return min(max(guess, 0), len(lines))
    limit = len(lines) - len(needle)
    for offset in range(0, len(lines) + 1):
        for start in (guess - offset, guess + offset):
            if 0 <= start <= limit and lines[start:start + len(needle)] == needle:
                return start
    return None


def apply_patch(workspace: Mapping[str, str], patch: str) -> AppliedPatch:
    """Apply ``patch`` to a copy of ``workspace``; raises :class:`PatchError` on mismatch."""
    files = dict(workspace)
    changed: dict[str, set[int]] = {}
    original_marks: dict[str, set[int]] = {}
    for fp in parse_patch(patch):
        if fp.old_path is None:
            original: list[str] = []
        else:
            if fp.old_path not in files:
                raise PatchError(f"patch modifies {fp.old_path!r}, which is not in the workspace", field="patch")
            original = files[fp.old_path].splitlines()
        result = list(original)
        marks: set[int] = set()
        shift = 0
        for hunk in fp.hunks:
            old = [ln[1:] for ln in hunk.lines if ln[0] in " -"]
            new = [ln[1:] for ln in hunk.lines if ln[0] in " +"]
            at = _find(result, old, hunk.old_start - 1 + shift)
            if at is None:
                raise PatchError(
                    f"hunk at line {hunk.old_start} of {fp.path!r} does not match the workspace", field="patch")
            result[at:at + len(old)] = new
            old_no = at - shift + 1
            for ln in hunk.lines:
                if ln[0] == "-":
                    original_marks.setdefault(fp.old_path or "", set()).add(old_no)
                    old_no += 1
                elif ln[0] == "+":
                    original_marks.setdefault(fp.old_path or "", set()).add(max(old_no - 1, 1))
                else:
                    old_no += 1
            line_no = at + 1
            for ln in hunk.lines:
                if ln[0] == "+":
                    marks.add(line_no)
                    line_no += 1
                elif ln[0] == "-":
                    marks.add(max(line_no - 1, 1))
                else:
                    line_no += 1
            shift += len(new) - len(old)
        if fp.new_path is None:
            files.pop(fp.old_path or "", None)
            continue
        if fp.old_path is not None and fp.old_path != fp.new_path:
            files.pop(fp.old_path, None)
        text = "\n".join(result)
        files[fp.new_path] = text + "\n" if result else ""
        changed.setdefault(fp.new_path, set()).update(marks)
    original_marks.pop("", None)  # new files have no original lines
    return AppliedPatch(files, changed, original_marks)


@dataclass(frozen=True)
class ChangedFunction:
    path: str
    start_line: int
    end_line: int
    source: str


@dataclass(frozen=True)
class ChangedUnit:
    """What a patch changed, ready for :func:`~.normalise.normalise`."""

    tree: Node
    functions: tuple[ChangedFunction, ...]
    errors: tuple[ParseFailure, ...]

    @property
    def source(self) -> str:
        return "\n\n".join(f.source for f in self.functions)


def _enclosing(root: TSNode, line: int, text: str, function_types: frozenset[str]) -> TSNode | None:
    """Innermost function containing 0-based ``line``, else the top-level statement."""
    column = len(text) - len(text.lstrip())
    node = root.named_descendant_for_point_range((line, column), (line, column))
    found = None
    while node is not None:
        if node.type in function_types:
            return node
        if node.parent is not None and node.parent.parent is None:
            found = node
        node = node.parent
    return found


def changed_functions(patch: str, workspace: Mapping[str, str], language: str, *, side: str = "after") -> ChangedUnit:
    """The functions ``patch`` changes, lowered into one ``module`` tree.

    ``side="after"`` takes them from the patched files (the fix as submitted);
    ``side="before"`` takes the same functions from the original workspace
    (what the fix replaced), so a fix can be compared as a change, not only as
    a result.
    """
    if side not in ("after", "before"):
        raise PatchError("side must be 'after' or 'before'", field="side")
    applied = apply_patch(workspace, patch)
    if side == "after":
        return _units(applied.files, applied.changed_lines, language)
    return _units(dict(workspace), applied.original_lines, language)


def _units(files: Mapping[str, str], lines_by_path: Mapping[str, set[int]], language: str) -> ChangedUnit:
    spec = get_language(language)
    picked: list[ChangedFunction] = []
    trees: list[Node] = []
    errors: list[ParseFailure] = []
    for path in sorted(lines_by_path):
        if path not in files or language_for_extension(os.path.splitext(path)[1]) != spec.name:
            continue
        data = files[path].encode("utf-8")
        lowerer = lowerer_for(language, data)
        root = parser_for(language).parse(data).root_node
        if root.has_error:
            bad = _first_error(root) or root
            errors.append(ParseFailure(path, bad.start_point[0] + 1, bad.start_point[1] + 1,
                                       "patched file does not parse"))
            continue
        chosen: dict[tuple[int, int], TSNode] = {}
        file_lines = files[path].splitlines()
        for line in sorted(lines_by_path[path]):
            line = min(line, len(file_lines))
            while line > 1 and not file_lines[line - 1].strip():
                line -= 1  # a blank line belongs to the code before it
            if line < 1 or not file_lines[line - 1].strip():
                continue
            node = _enclosing(root, line - 1, file_lines[line - 1], spec.function_types)
            if node is None:
                continue
            span = (node.start_byte, node.end_byte)
            # keep only outermost picks: a changed closure inside a changed function is that function
            if any(s <= span[0] and span[1] <= e for s, e in chosen):
                continue
            chosen = {k: v for k, v in chosen.items() if not (span[0] <= k[0] and k[1] <= span[1])}
            chosen[span] = node
        for (start, end), node in sorted(chosen.items()):
            picked.append(ChangedFunction(path, node.start_point[0] + 1, node.end_point[0] + 1,
                                          data[start:end].decode("utf-8", "replace")))
            trees.extend(lowerer.lower(node))
    return ChangedUnit(Node("module", children=trees), tuple(picked), tuple(errors))


def read_workspace(directory: str | os.PathLike[str]) -> dict[str, str]:
    """All text files under ``directory`` keyed by their relative POSIX path."""
    base = Path(directory)
    out: dict[str, str] = {}
    for path in sorted(base.rglob("*")):
        if path.is_file() and ".git" not in path.parts:
            try:
                out[path.relative_to(base).as_posix()] = path.read_text("utf-8")
            except UnicodeDecodeError:
                continue
    return out
