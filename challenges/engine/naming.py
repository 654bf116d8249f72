"""Identifier naming for generated code.

``LexiconView`` reads any lexicon in the agreed JSON schema (a ``Lexicon`` object
with ``to_dict()``, or a plain mapping), so the engine depends only on the schema
in notes/engine_contracts.md, not on the lexicon package internals.

``Namer`` turns words into identifiers in the conventions of one target
language: Python ``snake_case`` functions/fields, JavaScript ``camelCase``;
``PascalCase`` classes and ``UPPER_SNAKE`` constants in both.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from challenges.engine.errors import DrawError

_WORD = re.compile(r"[A-Z]+(?=[A-Z][a-z]|\d|\b)|[A-Z]?[a-z]+|[A-Z]+|\d+")


def words(*parts: str) -> list[str]:
    """Split identifiers in any case style into lower-case words."""
    out: list[str] = []
    for part in parts:
        for chunk in re.split(r"[^A-Za-z0-9]+", part):
            out.extend(w.lower() for w in _WORD.findall(chunk))
    return out


def snake(*parts: str) -> str:
    return "_".join(words(*parts))


def camel(*parts: str) -> str:
    ws = words(*parts)
    return ws[0] + "".join(w.capitalize() for w in ws[1:]) if ws else ""


def pascal(*parts: str) -> str:
    return "".join(w.capitalize() for w in words(*parts))


def upper(*parts: str) -> str:
    return "_".join(words(*parts)).upper()


def kebab(*parts: str) -> str:
    return "-".join(words(*parts))


def title(*parts: str) -> str:
    return " ".join(words(*parts)).capitalize()


def human(*parts: str) -> str:
    return " ".join(words(*parts))


def lexicon_dict(lexicon: Any) -> dict[str, Any]:
    """The schema dict of a lexicon object or mapping."""
    if isinstance(lexicon, Mapping):
        return dict(lexicon)
    to_dict = getattr(lexicon, "to_dict", None)
    if callable(to_dict):
        return dict(to_dict())
    raise DrawError("lexicon_invalid", f"cannot read lexicon of type {type(lexicon).__name__}", field="lexicon")


# Error names by role that say what failed and nothing about what it concerns. A project
# whose domain-specific error name (``InvalidTaxCode``) would be raised for something else
# (a bad setting) uses one of these for that role instead.
GENERIC_ERRORS: dict[str, tuple[str, ...]] = {
    "not_found": ("NotFound", "DoesNotExist", "UnknownKey"),
    "invalid": ("ValidationError", "InvalidRequest", "InvalidInput", "BadRequest", "InvalidValue"),
    "conflict": ("Conflict", "AlreadyExists", "DuplicateEntry"),
    "exhausted": ("CapacityExceeded", "NoCapacity", "LimitReached"),
    "unavailable": ("ServiceUnavailable", "BackendUnavailable", "UpstreamUnavailable"),
}


def generic_error(role: str, seed: int) -> str:
    """The generic error name a project (``seed``) uses for ``role``."""
    choices = GENERIC_ERRORS[role]
    return choices[(seed >> (3 * list(GENERIC_ERRORS).index(role))) % len(choices)]


@dataclass(frozen=True)
class LexiconView:
    """Read-only access to the schema fields a template needs."""

    data: Mapping[str, Any]

    @classmethod
    def of(cls, lexicon: Any) -> LexiconView:
        return cls(lexicon_dict(lexicon))

    @property
    def key(self) -> str:
        return str(self.data["key"])

    @property
    def domain(self) -> str:
        return str(self.data["domain"])

    @property
    def project_names(self) -> tuple[str, ...]:
        return tuple(self.data["project_names"])

    def noun(self, role: str, plural: bool = False) -> str:
        return str(self.data[role]["plural" if plural else "singular"])

    def field(self, role: str) -> str:
        return str(self.data["fields"][role])

    def verb(self, role: str) -> str:
        return str(self.data["verbs"][role])

    def error(self, role: str) -> str:
        return str(self.data["errors"][role])

    def unit(self, role: str) -> str:
        return str(self.data["units"][role])

    @property
    def statuses(self) -> tuple[str, ...]:
        return tuple(self.data["statuses"])

    @property
    def categories(self) -> tuple[str, ...]:
        return tuple(self.data["categories"])

    def samples(self, role: str) -> tuple[str, ...]:
        return tuple(self.data["samples"][role])

    @property
    def log_phrases(self) -> tuple[str, ...]:
        return tuple(self.data.get("log_phrases", ()))

    def to_dict(self) -> dict[str, Any]:
        return dict(self.data)

    def with_errors(self, names: Mapping[str, str]) -> LexiconView:
        """This lexicon with some error roles renamed (``role -> PascalCase name``)."""
        return LexiconView({**self.data, "errors": {**self.data["errors"], **names}})


@dataclass(frozen=True)
class Namer:
    """Language-aware identifier builder; ``fn``/``var``/``field`` follow the language."""

    language: str

    def fn(self, *parts: str) -> str:
        """A function, method or variable name."""
        return camel(*parts) if self.language == "javascript" else snake(*parts)

    var = fn
    field = fn

    def cls(self, *parts: str) -> str:
        return pascal(*parts)

    def const(self, *parts: str) -> str:
        return upper(*parts)

    def private(self, *parts: str) -> str:
        """An internal attribute/function name (leading underscore in both languages)."""
        return "_" + self.fn(*parts)

    def file(self, *parts: str) -> str:
        """A module file stem (``snake`` for Python, ``kebab`` for JavaScript)."""
        return kebab(*parts) if self.language == "javascript" else snake(*parts)
