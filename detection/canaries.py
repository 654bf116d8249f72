"""Where a patch meets the instance's canaries (pure, no Django).

A canary's region is a 1-based inclusive line span of a file of the shipped workspace (the
sealed canary map); patches are unified diffs against that same workspace, so a hunk's
old-side line numbers are the region's numbers. A canary is *modified* when the patch
removes (or replaces) a line inside the region or inserts lines between two of its lines.
"""

from __future__ import annotations

from dataclasses import dataclass

from detection.analysis.errors import PatchError
from detection.analysis.patches import parse_patch
from detection.signals.base import Canary


@dataclass(frozen=True)
class CanaryTouch:
    canary: Canary
    modified: bool
    lines: tuple[int, ...]  # old-side lines of the region the patch removed or inserted at
    excerpt: str  # the hunk lines touching the region (diff markers kept), bounded

    def as_dict(self) -> dict:
        return {"canary": self.canary.name, "path": self.canary.path, "region": list(self.canary.lines),
                "modified": self.modified, "lines": list(self.lines)}


def _clip(text: str, max_bytes: int) -> str:
    data = text.encode("utf-8")
    if len(data) <= max_bytes:
        return text
    return data[: max(0, max_bytes - 4)].decode("utf-8", errors="ignore") + "\n…"


def canary_touches(patch: str, canaries: tuple[Canary, ...] | list[Canary], *, excerpt_bytes: int = 1024
                   ) -> list[CanaryTouch]:
    """One :class:`CanaryTouch` per canary, in the given order. A patch that cannot be
    parsed touches nothing (the oracle has judged it already; detection never raises on it)."""
    try:
        files = parse_patch(patch)
    except PatchError:
        files = []
    out: list[CanaryTouch] = []
    for canary in canaries:
        start, end = canary.lines
        hit: set[int] = set()
        shown: list[str] = []
        for fp in files:
            if fp.old_path != canary.path:
                continue
            for hunk in fp.hunks:
                old_no = hunk.old_start
                touched_here: list[str] = []
                replacing = False  # the previous line removed a region line
                for line in hunk.lines:
                    marker = line[:1]
                    if marker == "-":
                        replacing = start <= old_no <= end
                        if replacing:
                            hit.add(old_no)
                            touched_here.append(line)
                        old_no += 1
                    elif marker == "+":
                        # Inserted before old line ``old_no``: inside when between two region
                        # lines, or when it replaces removed region lines.
                        if replacing:
                            touched_here.append(line)
                        elif start < old_no <= end:
                            hit.add(old_no)
                            touched_here.append(line)
                    else:
                        replacing = False
                        if start <= old_no <= end:
                            touched_here.append(line)
                        old_no += 1
                if any(line[:1] in "+-" for line in touched_here):
                    shown.append(f"@@ {fp.old_path}:{hunk.old_start} @@\n" + "\n".join(touched_here))
        out.append(CanaryTouch(canary, bool(hit), tuple(sorted(hit)), _clip("\n".join(shown), excerpt_bytes)))
    return out
