"""How each kind of simulated agent behaves on one challenge (pure, no Django).

A plan is a list of steps: wait ``delay`` seconds (already scaled), then submit a patch
of a given kind. Patch kinds are resolved against the instance's staff-side secrets by
the runner: "gold", "alternative" (a correct fix of another form), "canary" (the obvious
but wrong "fix" of a canary), "wrong" (the gold fix with its comparison mutated), "noop"
(a patch that changes nothing that matters) and "ring" (the ring's shared fix).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

KINDS = ("honest", "memoriser", "canary_fixer", "copy_ring", "retry_gamer")


@dataclass(frozen=True)
class Step:
    delay: float
    patch: str
    new_attempt: bool = False


@dataclass(frozen=True)
class Metadata:
    tokens: int | None
    cost_usd: str | None


def population(size: int) -> list[str]:
    """Kinds for ``size`` agents: every kind once when size allows, two in the copy ring,
    the rest honest solvers (the majority of a real field)."""
    base = ["honest", "memoriser", "copy_ring", "copy_ring", "retry_gamer", "canary_fixer"]
    if size <= len(base):
        return base[:size]
    return base + ["honest"] * (size - len(base))


def plan(kind: str, *, tier: int, rng: random.Random, time_scale: float) -> list[Step]:
    think = tier * rng.uniform(20, 60) * time_scale
    if kind == "honest":
        if rng.random() < 0.25:  # some honest failures: a wrong first try, then maybe a fix
            steps = [Step(think, "wrong")]
            return steps + [Step(think / 2, rng.choice(["gold", "alternative"]))] if rng.random() < 0.6 else steps
        return [Step(think, rng.choice(["gold", "alternative", "alternative"]))]
    if kind == "memoriser":
        return [Step(rng.uniform(0.2, 1.0), "gold")]
    if kind == "canary_fixer":
        return [Step(think / 3, "canary"), Step(think / 3, "gold")]
    if kind == "copy_ring":
        return [Step(think, "ring")]
    if kind == "retry_gamer":
        return [Step(0.2, "noop"), Step(0.2, "wrong"), Step(0.2, "wrong", new_attempt=True),
                Step(0.3, "noop", new_attempt=True), Step(think / 2, "alternative")]
    raise ValueError(f"unknown kind {kind!r}")


def patch_paths(patch: str) -> list[str]:
    """The workspace paths a unified diff changes (its ``+++ b/...`` headers)."""
    return [line[6:].split("\t")[0] for line in patch.splitlines() if line.startswith("+++ b/")]


def trace(kind: str, *, paths: list[str], rng: random.Random) -> list[dict] | None:
    """What the agent reports it did, in the API's trace format (a list of steps).

    Honest solvers test, search, read around and test again; the memoriser goes straight
    to the edit and never tests; the others read what they change, edit and test. Some
    honest agents send no trace at all, as real ones may.
    """
    if kind == "honest" and rng.random() < 0.2:
        return None
    edits = [{"action": "edit", "target": path} for path in paths]
    if kind == "memoriser":
        return edits
    reads = [{"action": "read", "target": path} for path in paths]
    if kind == "honest":
        around = [{"action": "read", "target": "README.md"}, {"action": "search", "target": "def "}]
        return [{"action": "test", "target": "visible tests"}, *around, *reads, *edits,
                {"action": "test", "target": "visible tests"}]
    return [*reads, *edits, {"action": "test", "target": "visible tests"}]


def metadata(kind: str, *, tier: int, rng: random.Random) -> Metadata:
    if kind == "memoriser":
        tokens = rng.randint(800, 3000)
    else:
        tokens = int(tier * rng.uniform(8000, 30000))
    if kind == "honest" and rng.random() < 0.2:
        return Metadata(tokens=None, cost_usd=None)  # some agents report nothing; never shown as free
    return Metadata(tokens=tokens, cost_usd=f"{tokens * rng.uniform(2e-6, 1.2e-5):.6f}")


def mutate_fix(patch: str) -> str | None:
    """The fix with its first comparison or arithmetic operator flipped on an added line."""
    swaps = [(" < ", " <= "), (" <= ", " < "), (" > ", " >= "), (" >= ", " > "), (" == ", " != "),
             (" + ", " - "), (" - ", " + "), (" and ", " or "), (" && ", " || ")]
    lines = patch.splitlines(keepends=True)
    for index, line in enumerate(lines):
        if line.startswith("+") and not line.startswith("+++"):
            for old, new in swaps:
                if old in line:
                    lines[index] = line.replace(old, new, 1)
                    return "".join(lines)
    return None


_COMMENT = {".py": "#", ".js": "//", ".ts": "//", ".go": "//", ".java": "//", ".rs": "//", ".mjs": "//", ".cjs": "//"}
_PHRASES = ("fix", "boundary check", "make the comparison strict", "handle the edge case", "guard against this",
            "bug fix", "correct the condition", "keep the invariant", "check before use", "this was off by one",
            "avoid the race", "as the spec says")
_ENDINGS = ("", ".", " here", " (see tests)", " - reviewed", " per issue")


def personalise(patch: str, rng: random.Random) -> str:
    """An independent solver's own incidental text: most write a short comment in their own
    words above their first added line, some write none. The fix itself is unchanged, so
    the patch still applies and still solves; what differs is what independent authors
    never share verbatim (the text a copier carries along)."""
    if rng.random() < 0.2:
        return patch
    lines = patch.splitlines(keepends=True)
    target, header = None, None
    for index, line in enumerate(lines):
        if line.startswith("+++ "):
            target = line[4:].strip()
        elif line.startswith("@@"):
            header = index
        elif line.startswith("+") and line[1:].strip() and header is not None and target:
            prefix = _COMMENT.get(target[target.rfind("."):]) if "." in target else None
            if prefix is None:
                return patch
            body = line[1:]
            indent = body[: len(body) - len(body.lstrip())]
            phrase = rng.choice(_PHRASES) + rng.choice(_ENDINGS)
            lines.insert(index, f"+{indent}{prefix} {phrase}\n")
            lines[header] = _grow_new_side(lines[header])
            return "".join(lines)
    return patch


def _grow_new_side(header: str) -> str:
    """``@@ -a,b +c,d @@`` with one more line on the new side."""
    head, _, rest = header.partition(" @@")
    old, new = head[3:].split(" ")
    start, _, count = new[1:].partition(",")
    return f"@@ {old} +{start},{int(count or 1) + 1} @@{rest}"


def vary(patch: str, member: int) -> str:
    """A near-identical copy: trailing spaces on the first added line, one per member."""
    lines = patch.splitlines(keepends=True)
    for index, line in enumerate(lines):
        if line.startswith("+") and not line.startswith("+++") and line.strip() != "+":
            body = line.rstrip("\n")
            lines[index] = body + " " * member + ("\n" if line.endswith("\n") else "")
            break
    return "".join(lines)
