"""Canonical observation values as the host reads them: bounded, validated, never evaluated.

Inside the sandbox a small runtime turns whatever a probe observes into a canonical tree
(``drivers/probe_runtime.py``, ``drivers/probe_runtime.cjs``): JSON ``null``, booleans and
strings stand for themselves, a list is a list, and everything else is a one-key object
whose key is a tag (``{"num": "0.5"}``, ``{"tuple": [...]}``, ``{"set": [...]}``,
``{"raised": "ValueError"}``, ...). Sets, mappings and object fields arrive sorted, floats
as their exact shortest text, and object identity never appears, so two runs of the same
deterministic code give equal trees.

The host never trusts that: ``check_value`` walks a tree with explicit bounds (depth, node
count, string and number length) and refuses anything outside the grammar, so a hostile
stream can cost at most the channel's byte cap. Equality is structural equality of checked
trees; ``render`` gives staff a short, escaped view of a value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

# Tags whose payload is a string (text, numbers as exact text, names).
TEXT_TAGS = frozenset({
    "num", "bigint", "bytes", "decimal", "fraction", "datetime", "date", "time", "timedelta", "enum",
    "type", "function", "symbol", "regexp", "opaque", "raised", "deep", "cycle", "undefined", "promise",
})
# Tags whose payload is a list of values.
LIST_TAGS = frozenset({"tuple", "set", "list"})
# Tags whose payload is a list of [key, value] pairs.
PAIR_TAGS = frozenset({"dict", "map"})
# Tags that carry a name and a list of [field, value] pairs.
RECORD_TAGS = frozenset({"object", "error"})

MAX_DEPTH = 48
MAX_NODES = 20_000
MAX_TEXT = 8_192


class BadValue(Exception):
    """A tree outside the canonical grammar or beyond the bounds."""


@dataclass
class Budget:
    """Nodes left for one record; shared by every value in it."""

    nodes: int = MAX_NODES


def check_value(value: Any, budget: Budget | None = None) -> Any:
    """Return ``value`` if it is a canonical tree within bounds, else raise ``BadValue``.

    Iterative, so a deeply nested tree costs no recursion; JSON decoding already happened
    under the channel's byte cap.
    """
    budget = budget or Budget()
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack:
        node, depth = stack.pop()
        budget.nodes -= 1
        if budget.nodes < 0:
            raise BadValue("too many nodes")
        if depth > MAX_DEPTH:
            raise BadValue("nested too deeply")
        if node is None or isinstance(node, bool):
            continue
        if isinstance(node, str):
            if len(node) > MAX_TEXT:
                raise BadValue("string too long")
            continue
        if isinstance(node, list):
            stack.extend((item, depth + 1) for item in node)
            continue
        if not isinstance(node, dict):
            raise BadValue(f"unexpected {type(node).__name__}")
        if set(node) in ({"str", "len", "sha256"}, {"raised", "message"}):
            # A long string by prefix, length and digest; an exception with its message.
            for key, part in node.items():
                ok = (isinstance(part, int) and not isinstance(part, bool) and 0 <= part < 2 ** 53) if key == "len" \
                    else (isinstance(part, str) and len(part) <= MAX_TEXT)
                if not ok:
                    raise BadValue(f"bad {key}")
            continue
        if len(node) != 1:
            raise BadValue("an object must have exactly one tag")
        (tag, payload), = node.items()
        if tag == "returned":
            if payload is not None:
                raise BadValue("bad payload for returned")
        elif tag in TEXT_TAGS:
            if not isinstance(payload, str) or len(payload) > MAX_TEXT:
                raise BadValue(f"bad payload for {tag}")
        elif tag in LIST_TAGS:
            if not isinstance(payload, list):
                raise BadValue(f"bad payload for {tag}")
            stack.extend((item, depth + 1) for item in payload)
        elif tag in PAIR_TAGS or tag in RECORD_TAGS:
            pairs = payload
            if tag in RECORD_TAGS:
                if not (isinstance(payload, list) and len(payload) == 2 and isinstance(payload[0], str)
                        and len(payload[0]) <= MAX_TEXT):
                    raise BadValue(f"bad payload for {tag}")
                pairs = payload[1]
            if not isinstance(pairs, list):
                raise BadValue(f"bad pairs for {tag}")
            for pair in pairs:
                if not (isinstance(pair, list) and len(pair) == 2):
                    raise BadValue(f"bad pair in {tag}")
                stack.append((pair[0], depth + 1))
                stack.append((pair[1], depth + 1))
        else:
            raise BadValue("unknown tag")
    return value


def number(value: Any) -> float | None:
    """The float a ``{"num": ...}`` tree stands for, or None (used by approximate rules)."""
    if isinstance(value, dict) and set(value) == {"num"} and isinstance(value["num"], str):
        text = value["num"]
        if len(text) > 40:
            return None
        try:
            return float(text)
        except ValueError:
            return None
    return None


LOW_ENTROPY: tuple[Any, ...] = (True, False, None, {"num": "0"}, {"num": "1"}, {"num": "-1"}, "", [],
                                {"tuple": []}, {"set": []}, {"dict": []}, {"map": []}, {"returned": None},
                                {"undefined": ""})


def render(value: Any, limit: int = 160) -> str:
    """A short, single-line, printable view of a checked tree for staff (never for agents)."""
    import json

    text = json.dumps(value, ensure_ascii=True, sort_keys=True, separators=(",", ":"))
    return text if len(text) <= limit else text[: limit - 3] + "..."
