"""A ``key=value`` line format (often called logfmt).

``dumps({"user": "ada", "msg": "signed in", "ms": 12})`` gives
``user=ada msg="signed in" ms=12``.  Values that contain spaces, quotes, ``=`` or
are empty are double-quoted with backslash escapes; ``loads`` reverses it.
Numbers and booleans come back as text unless ``typed=True`` asks for them to
be read back as ``int``, ``float`` or ``bool``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

_KEY = re.compile(r"^[A-Za-z_][A-Za-z0-9_.-]*$")
_BARE = re.compile(r'^[^\s"=\\]+$')
_ESCAPES = {"n": "\n", "t": "\t", '"': '"', "\\": "\\"}


def _typed(text: str) -> Any:
    if text in ("true", "false"):
        return text == "true"
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    if re.fullmatch(r"-?\d+\.\d+(?:[eE][-+]?\d+)?", text):
        return float(text)
    return text


class KeyValueFormat:
    """Writes and reads ``key=value`` lines."""

    def __init__(self, separator: str = " ", sort_keys: bool = False) -> None:
        if separator not in (" ", "\t", ", "):
            raise ValueError("separator must be a space, a tab or ', '")
        self.separator = separator
        self.sort_keys = sort_keys

    @staticmethod
    def quote(value: Any) -> str:
        if value is None:
            return ""
        if isinstance(value, bool):
            return "true" if value else "false"
        text = str(value)
        if _BARE.match(text):
            return text
        escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")
        return f'"{escaped}"'

    def dumps(self, fields: Mapping[str, Any]) -> str:
        keys = sorted(fields) if self.sort_keys else list(fields)
        for key in keys:
            if not _KEY.match(key):
                raise ValueError(f"invalid key: {key!r}")
        return self.separator.join(f"{key}={self.quote(fields[key])}" for key in keys)

    def loads(self, line: str, typed: bool = False) -> dict[str, Any]:
        fields: dict[str, Any] = {}
        pos, size = 0, len(line)
        while pos < size:
            while pos < size and line[pos] in " \t,":
                pos += 1
            if pos >= size:
                break
            eq = line.find("=", pos)
            if eq < 0:
                raise ValueError(f"expected key=value at column {pos + 1}")
            key = line[pos:eq]
            if not _KEY.match(key):
                raise ValueError(f"invalid key {key!r} at column {pos + 1}")
            pos = eq + 1
            if pos < size and line[pos] == '"':
                value, pos = self._quoted(line, pos + 1)
                fields[key] = value
                continue
            end = pos
            while end < size and line[end] not in " \t" and not line.startswith(", ", end):
                end += 1
            raw = line[pos:end]
            fields[key] = _typed(raw) if typed else raw
            pos = end
        return fields

    @staticmethod
    def _quoted(line: str, pos: int) -> tuple[str, int]:
        out = []
        while pos < len(line):
            char = line[pos]
            if char == "\\" and pos + 1 < len(line):
                out.append(_ESCAPES.get(line[pos + 1], line[pos + 1]))
                pos += 2
            elif char == '"':
                return "".join(out), pos + 1
            else:
                out.append(char)
                pos += 1
        raise ValueError("unterminated quoted value")


def kv_format_from_settings(settings: Mapping[str, object]) -> KeyValueFormat:
    """The line format of the ``serialization`` section of ``settings``."""
    section = settings.get("serialization", {}) or {}
    return KeyValueFormat(separator=str(section.get("separator", " ")), sort_keys=bool(section.get("sort_keys", False)))
