"""Declarative schemas for incoming mappings (request bodies, file rows, settings).

A ``Schema`` is a set of named ``Field``s.  ``Schema.load`` returns a new dict of
clean values and collects *every* problem before raising one ``SchemaError``
whose ``errors`` map field names to messages, so a caller can report them all.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

_MISSING = object()


class SchemaError(ValueError):
    """Raised by ``Schema.load``; ``errors`` maps each bad field to its message."""

    def __init__(self, errors: dict[str, str]) -> None:
        super().__init__("; ".join(f"{name}: {message}" for name, message in sorted(errors.items())))
        self.errors = errors


def _to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    if isinstance(value, str) and value.strip().lower() in ("1", "true", "yes", "on"):
        return True
    if isinstance(value, str) and value.strip().lower() in ("0", "false", "no", "off"):
        return False
    if isinstance(value, int) and value in (0, 1):
        return bool(value)
    raise ValueError("expected a boolean")


def _to_int(value: Any) -> int:
    if isinstance(value, bool):
        raise ValueError("expected an integer")
    if isinstance(value, float) and not value.is_integer():
        raise ValueError("expected a whole number")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ValueError("expected an integer") from None


def _to_float(value: Any) -> float:
    if isinstance(value, bool):
        raise ValueError("expected a number")
    try:
        return float(value)
    except (TypeError, ValueError):
        raise ValueError("expected a number") from None


COERCERS: dict[type, Callable[[Any], Any]] = {bool: _to_bool, int: _to_int, float: _to_float, str: str}


@dataclass(frozen=True)
class Field:
    """One field: its type, whether it is required, its default and its constraints."""

    type: type = str
    required: bool = True
    default: Any = None
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple[Any, ...] = ()
    pattern: str | None = None
    max_length: int | None = None
    check: Callable[[Any], str | None] | None = field(default=None, compare=False)

    def clean(self, raw: Any, strip: bool) -> Any:
        if self.type not in COERCERS:
            raise TypeError(f"unsupported field type {self.type.__name__}")
        if isinstance(raw, str) and strip:
            raw = raw.strip()
        value = COERCERS[self.type](raw)
        if self.minimum is not None and value < self.minimum:
            raise ValueError(f"must be at least {self.minimum}")
        if self.maximum is not None and value > self.maximum:
            raise ValueError(f"must be at most {self.maximum}")
        if self.choices and value not in self.choices:
            raise ValueError("must be one of " + ", ".join(map(str, self.choices)))
        if self.pattern is not None and not re.fullmatch(self.pattern, str(value)):
            raise ValueError("has an invalid format")
        if self.max_length is not None and len(str(value)) > self.max_length:
            raise ValueError(f"must be at most {self.max_length} characters")
        if self.check is not None:
            problem = self.check(value)
            if problem:
                raise ValueError(problem)
        return value


@dataclass(frozen=True)
class SchemaOptions:
    allow_unknown: bool = False
    strip_strings: bool = True


class Schema:
    """Named fields checked together."""

    def __init__(self, fields: Mapping[str, Field], options: SchemaOptions | None = None) -> None:
        self.fields = dict(fields)
        self.options = options or SchemaOptions()

    def load(self, data: Mapping[str, Any]) -> dict[str, Any]:
        """Clean values for every field; raises ``SchemaError`` listing every problem."""
        if not isinstance(data, Mapping):
            raise SchemaError({"": "expected an object"})
        errors: dict[str, str] = {}
        clean: dict[str, Any] = {}
        for name, spec in self.fields.items():
            raw = data.get(name, _MISSING)
            if raw is _MISSING or raw is None or (raw == "" and spec.type is not str):
                if spec.required and spec.default is None:
                    errors[name] = "is required"
                else:
                    clean[name] = spec.default
                continue
            try:
                clean[name] = spec.clean(raw, self.options.strip_strings)
            except ValueError as exc:
                errors[name] = str(exc)
        if not self.options.allow_unknown:
            for name in sorted(set(data) - set(self.fields)):
                errors[name] = "is not a known field"
        if errors:
            raise SchemaError(errors)
        return clean

    def partial(self) -> Schema:
        """The same schema with every field optional (for updates)."""
        relaxed = {name: Field(**{**spec.__dict__, "required": False}) for name, spec in self.fields.items()}
        return Schema(relaxed, self.options)


def schema_options_from_settings(settings: Mapping[str, object]) -> SchemaOptions:
    """Schema options from the ``validation`` section of ``settings``."""
    section = settings.get("validation", {}) or {}
    return SchemaOptions(allow_unknown=bool(section.get("allow_unknown", False)),
                         strip_strings=bool(section.get("strip_strings", True)))
