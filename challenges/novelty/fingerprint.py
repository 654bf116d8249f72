"""Structured challenge fingerprints (spec 003, Strategy 2) and their canonical form.

A :class:`Fingerprint` has exactly the spec's nine fields. Constructing one
normalises every value, so two fingerprints that describe the same thing compare
equal and hash alike:

* **Tokens.** Text is case-folded and split into tokens, each a maximal run of
  letters/digits optionally followed by ``+``/``#`` (so ``C++`` and ``C#`` stay
  distinct from ``C``). Everything else (spaces, ``-``, ``_``, ``.``, ``/``) separates.
* **String fields** are stored as their tokens joined by ``-``
  (``"Off-by-one in loop bound"`` -> ``"off-by-one-in-loop-bound"``). ``bug_type``
  must contain at least one token; the other string fields may be empty (a corpus
  entry for a standalone puzzle has no meaningful ``bug_location``).
* **List fields** are sets: each item is normalised like a string field, items
  must not normalise to nothing, duplicates collapse, and the stored tuple is sorted.
* **complexity_tier** is an ``int`` in ``TIER_MIN..TIER_MAX`` (1-5); ``bool`` is refused.

Bad input raises :class:`~challenges.novelty.errors.FingerprintError` whose ``code``
is one of ``not_a_mapping``, ``unknown_field``, ``missing_field``, ``invalid_type``,
``empty_field``, ``empty_item``, ``tier_out_of_range`` and whose message names the field.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .errors import FingerprintError

TIER_MIN = 1
TIER_MAX = 5

STRING_FIELDS: tuple[str, ...] = (
    "bug_type",
    "bug_location",
    "architecture",
    "domain",
    "solution_approach",
)
LIST_FIELDS: tuple[str, ...] = ("tech_stack", "red_herring_types", "key_concepts")
TIER_FIELD = "complexity_tier"
#: Declaration order of the spec's fingerprint, used by ``to_dict`` and errors.
FIELDS: tuple[str, ...] = (
    "bug_type",
    "bug_location",
    "architecture",
    "domain",
    "tech_stack",
    "solution_approach",
    "complexity_tier",
    "red_herring_types",
    "key_concepts",
)
REQUIRED_NON_EMPTY: frozenset[str] = frozenset({"bug_type"})

_TOKEN = re.compile(r"[^\W_]+[+#]*")


def tokens(text: str) -> tuple[str, ...]:
    """Canonical tokens of ``text`` (case-folded, see module docstring)."""
    return tuple(_TOKEN.findall(text.casefold()))


def canonical_text(text: str) -> str:
    """The canonical stored form of a string field or list item."""
    return "-".join(tokens(text))


def _fail(code: str, field: str, message: str, **extra: Any) -> FingerprintError:
    return FingerprintError(code, message, field=field, **extra)


def _normalise_string(field: str, value: object) -> str:
    if not isinstance(value, str):
        raise _fail(
            "invalid_type",
            field,
            f"{field} must be a string, got {type(value).__name__}",
        )
    canonical = canonical_text(value)
    if not canonical and field in REQUIRED_NON_EMPTY:
        raise _fail("empty_field", field, f"{field} must not be empty")
    return canonical


def _normalise_list(field: str, value: object) -> tuple[str, ...]:
    # A bare string is iterable, but treating "python" as ("p", "y", ...) would be a
    # silent corruption, so only real sequences (and sets) are accepted.
    if isinstance(value, (str, bytes, Mapping)) or not isinstance(value, (list, tuple, set, frozenset)):
        raise _fail(
            "invalid_type",
            field,
            f"{field} must be a list of strings, got {type(value).__name__}",
        )
    items: set[str] = set()
    for position, item in enumerate(value):
        if not isinstance(item, str):
            raise _fail(
                "invalid_type",
                field,
                f"{field}[{position}] must be a string, got {type(item).__name__}",
                position=position,
            )
        canonical = canonical_text(item)
        if not canonical:
            raise _fail(
                "empty_item",
                field,
                f"{field}[{position}] is empty after normalisation",
                position=position,
            )
        items.add(canonical)
    return tuple(sorted(items))


def _normalise_tier(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise _fail(
            "invalid_type",
            TIER_FIELD,
            f"{TIER_FIELD} must be an integer, got {type(value).__name__}",
        )
    if not TIER_MIN <= value <= TIER_MAX:
        raise _fail(
            "tier_out_of_range",
            TIER_FIELD,
            f"{TIER_FIELD} must be between {TIER_MIN} and {TIER_MAX}, got {value}",
            value=value,
        )
    return value


@dataclass(frozen=True, slots=True)
class Fingerprint:
    """A normalised structured fingerprint. Construct directly or via :meth:`from_dict`."""

    bug_type: str
    bug_location: str
    architecture: str
    domain: str
    tech_stack: tuple[str, ...]
    solution_approach: str
    complexity_tier: int
    red_herring_types: tuple[str, ...]
    key_concepts: tuple[str, ...]

    def __post_init__(self) -> None:
        for field in STRING_FIELDS:
            object.__setattr__(self, field, _normalise_string(field, getattr(self, field)))
        for field in LIST_FIELDS:
            object.__setattr__(self, field, _normalise_list(field, getattr(self, field)))
        object.__setattr__(self, TIER_FIELD, _normalise_tier(self.complexity_tier))

    @classmethod
    def from_dict(cls, data: object) -> Fingerprint:
        """Validate and normalise a mapping with exactly the spec's fields."""
        if not isinstance(data, Mapping):
            raise _fail(
                "not_a_mapping",
                "fingerprint",
                f"fingerprint must be an object, got {type(data).__name__}",
            )
        unknown = sorted(str(key) for key in data if key not in FIELDS)
        if unknown:
            raise _fail(
                "unknown_field",
                unknown[0],
                f"unknown fingerprint field {unknown[0]!r}",
                unknown=unknown,
            )
        for field in FIELDS:
            if field not in data:
                raise _fail("missing_field", field, f"fingerprint field {field!r} is missing")
        return cls(**{field: data[field] for field in FIELDS})

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready mapping in canonical form; ``from_dict(to_dict())`` is the identity."""
        out: dict[str, Any] = {}
        for field in FIELDS:
            value = getattr(self, field)
            out[field] = list(value) if field in LIST_FIELDS else value
        return out
