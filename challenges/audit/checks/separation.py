"""Check 6, separation: no harness file and no platform path in the workspace or its history.

* ``harness_file``: a working-tree or historical path any of whose components
  matches a harness pattern (``*oracle*``, ``gold*.patch``, ``draw.json``...;
  case-insensitive ``fnmatch``); ``harness_path``: a path equal to a hidden
  file's path (``AuditContext.harness_paths``).
* ``harness_content``: a file or historical blob equal to a hidden file
  (oracle test, gold patch, canary map...) after line-ending and trailing
  whitespace normalisation, or containing one of at least ``MIN_EMBED_CHARS``.
* ``platform_path``: a platform path (repository root, var dir, interpreter
  prefix, engine package path, ``site-packages``...) in any surface.
* ``symlink_outside``: a working-tree link that is absolute or leaves the
  workspace; ``special_file``: a device, FIFO or socket; ``git_pointer``:
  ``.git`` is a file or link (its target lies elsewhere); ``git_hook``: an
  active hook script (harness code that would run inside the agent's git).
"""

from __future__ import annotations

import fnmatch
import posixpath

from challenges.audit.findings import Finding
from challenges.audit.surface import Surface
from challenges.audit.target import AuditContext

NAME = "separation"
NUMBER = 6
MIN_EMBED_CHARS = 200


def _normal(text: str) -> str:
    return "\n".join(line.rstrip() for line in text.replace("\r\n", "\n").strip().split("\n"))


def run(surface: Surface, context: AuditContext) -> list[Finding]:
    findings: list[Finding] = []
    patterns = [p.lower() for p in context.harness_patterns]
    hidden_paths = set(context.harness_paths)
    for item in surface.by_surface("path", "history-path"):
        parts = item.text.lower().split("/")
        matched = next((p for p in patterns for part in parts if fnmatch.fnmatchcase(part, p)), None)
        if matched is not None:
            findings.append(Finding(NAME, "harness_file", f"path matches harness pattern {matched!r}",
                                    item.location))
        if item.text in hidden_paths:
            findings.append(Finding(NAME, "harness_path", "path of a hidden file", item.location))

    hidden = {label: _normal(text) for label, text in context.harness_contents.items() if text.strip()}
    for item in surface.by_surface("file", "history-blob"):
        content = _normal(item.text)
        for label, text in sorted(hidden.items()):
            if content == text or (len(text) >= MIN_EMBED_CHARS and text in content):
                findings.append(Finding(NAME, "harness_content", f"content of hidden {label!r}", item.location))

    markers = [m for m in context.platform_paths if m]
    for item in surface.items:
        spans = []
        for marker in markers:
            at = item.text.find(marker)
            while at != -1:
                spans.append((at, at + len(marker), marker))
                at = item.text.find(marker, at + 1)
        # Report the widest match once: "/work/main/.venv/" hides "/.venv/" and "/work/main/".
        spans.sort(key=lambda s: (s[0], -(s[1] - s[0])))
        reach = -1
        for start, end, marker in spans:
            if end <= reach:
                continue
            reach = max(reach, end)
            findings.append(Finding(NAME, "platform_path", f"platform path {marker!r} in {item.surface}",
                                    item.where(start)))

    for rel, target in sorted(surface.symlinks.items()):
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(rel), target))
        if target.startswith("/") or resolved == ".." or resolved.startswith("../"):
            findings.append(Finding(NAME, "symlink_outside", f"link points to {target!r}", f"path {rel}"))
    for rel in surface.specials:
        findings.append(Finding(NAME, "special_file", "device, FIFO or socket in the workspace", f"path {rel}"))
    if surface.git_pointer is not None:
        findings.append(Finding(NAME, "git_pointer", ".git is a file or link to a repository elsewhere", ".git"))
    for hook in surface.hooks:
        findings.append(Finding(NAME, "git_hook", "active git hook in the workspace", f".git/{hook}"))
    return findings
