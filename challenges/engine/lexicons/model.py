"""The validated, immutable lexicon and its naming helpers.

See the package docstring for the template-author view. Role references
accepted by :meth:`Lexicon.name`, :meth:`Lexicon.ident` and
:meth:`Lexicon.compose`:

- noun roles ``entity``, ``owner``, ``item``, ``resource``, ``event``, optionally
  with a form: ``entity.singular``, ``entity.plural``;
- ``field.<role>`` for the ten field roles (``field.quantity``);
- ``verb.<role>`` for the ten verb roles (``verb.reserve``);
- ``error.<role>`` for the five error roles (``error.not_found``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any

from .errors import LexiconError
from .naming import Name, render, split_words
from .reserved import RESERVED_WORDS

NOUN_ROLES: tuple[str, ...] = ("entity", "owner", "item", "resource", "event")
FIELD_ROLES: tuple[str, ...] = (
    "identifier", "label", "quantity", "amount", "timestamp",
    "status", "category", "capacity", "priority", "rate",
)
UNIT_ROLES: tuple[str, ...] = ("amount", "quantity", "duration", "rate")
VERB_ROLES: tuple[str, ...] = (
    "create", "reserve", "release", "cancel", "process",
    "fetch", "settle", "retry", "validate", "notify",
)
ERROR_ROLES: tuple[str, ...] = ("not_found", "conflict", "invalid", "exhausted", "unavailable")
SAMPLE_ROLES: tuple[str, ...] = ("identifier", "label")
FORMS: tuple[str, ...] = ("singular", "plural")


@dataclass(frozen=True)
class Noun:
    singular: str
    plural: str


@dataclass(frozen=True)
class Fields:
    identifier: str
    label: str
    quantity: str
    amount: str
    timestamp: str
    status: str
    category: str
    capacity: str
    priority: str
    rate: str


@dataclass(frozen=True)
class Units:
    amount: str
    quantity: str
    duration: str
    rate: str


@dataclass(frozen=True)
class Verbs:
    create: str
    reserve: str
    release: str
    cancel: str
    process: str
    fetch: str
    settle: str
    retry: str
    validate: str
    notify: str


@dataclass(frozen=True)
class Errors:
    not_found: str
    conflict: str
    invalid: str
    exhausted: str
    unavailable: str


@dataclass(frozen=True)
class Samples:
    identifier: tuple[str, ...]
    label: tuple[str, ...]


def _section_dict(section: Any) -> dict[str, Any]:
    return {f.name: _plain(getattr(section, f.name)) for f in fields(section)}


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return list(value)
    if hasattr(value, "__dataclass_fields__"):
        return _section_dict(value)
    return value


@dataclass(frozen=True)
class Lexicon:
    """One coherent business domain. Build it with ``validate_lexicon``.

    Every string attribute is exactly the validated JSON value; naming helpers
    derive the other case styles.
    """

    key: str
    domain: str
    project_names: tuple[str, ...]
    entity: Noun
    owner: Noun
    item: Noun
    resource: Noun
    event: Noun
    fields: Fields
    units: Units
    verbs: Verbs
    statuses: tuple[str, ...]
    categories: tuple[str, ...]
    errors: Errors
    samples: Samples
    log_phrases: tuple[str, ...]

    # -- naming helpers -------------------------------------------------

    def name(self, role: str, form: str = "singular") -> Name:
        """The :class:`Name` for a role reference.

        ``form`` ("singular" or "plural") applies to noun roles only; a form in
        the reference itself (``"entity.plural"``) wins over the argument.
        """
        head, _, tail = role.partition(".")
        if head in NOUN_ROLES:
            chosen = tail or form
            if chosen not in FORMS:
                raise LexiconError("unknown_role", role, f"noun form must be one of {FORMS}")
            return Name.of(getattr(getattr(self, head), chosen))
        if form != "singular":
            raise LexiconError("no_plural", role, "only noun roles have a plural form")
        sections = {"field": (self.fields, FIELD_ROLES), "verb": (self.verbs, VERB_ROLES),
                    "error": (self.errors, ERROR_ROLES)}
        if head in sections and tail in sections[head][1]:
            return Name.of(getattr(sections[head][0], tail))
        raise LexiconError(
            "unknown_role", role,
            "expected a noun role (entity, owner, item, resource, event), "
            "'field.<role>', 'verb.<role>' or 'error.<role>'",
        )

    def ident(self, role: str, *, style: str = "snake", plural: bool = False) -> str:
        """A role's identifier as a string in ``style``.

        ``lex.ident("entity", style="camel", plural=True)`` -> ``"shipments"``.
        """
        return self.name(role, "plural" if plural else "singular").style(style)

    def compose(self, *parts: Name | str, style: str = "snake") -> str:
        """Join role references, Names and literal words into one identifier.

        A string part that is a role reference resolves to that role; any
        other string is taken literally (any case style). Wrap a word in
        ``Name.of(...)`` to force the literal reading of a role name.
        Raises ``LexiconError("reserved_name")`` if the result, in ``style``,
        is a keyword, builtin or global of a target language.
        """
        if not parts:
            raise LexiconError("unknown_role", "$", "compose needs at least one part")
        words: tuple[str, ...] = ()
        for part in parts:
            if isinstance(part, Name):
                words += part.words
            elif self.is_role(part):
                words += self.name(part).words
            else:
                words += split_words(part)
        result = render(words, style)
        if result in RESERVED_WORDS:
            raise LexiconError("reserved_name", result, "composed name is a reserved word")
        return result

    def is_role(self, ref: str) -> bool:
        """True when ``ref`` is a role reference understood by :meth:`name`."""
        head, _, tail = ref.partition(".")
        if head in NOUN_ROLES:
            return tail in ("",) + FORMS
        return (head, tail) in _SECTION_REFS

    def status_names(self, style: str = "snake") -> tuple[str, ...]:
        """Lifecycle statuses in order, rendered in ``style`` (``"upper"`` for enum members)."""
        return tuple(render(split_words(s), style) for s in self.statuses)

    def category_names(self, style: str = "snake") -> tuple[str, ...]:
        return tuple(render(split_words(c), style) for c in self.categories)

    @property
    def initial_status(self) -> str:
        return self.statuses[0]

    @property
    def final_status(self) -> str:
        return self.statuses[-1]

    def next_status(self, status: str) -> str | None:
        """The status after ``status`` in the lifecycle, or None at the end."""
        position = self.statuses.index(status)
        return self.statuses[position + 1] if position + 1 < len(self.statuses) else None

    def identifiers(self) -> dict[str, str]:
        """Every identifier-valued role reference mapped to its snake value.

        Statuses and categories appear as ``status.<n>`` / ``category.<n>``.
        Useful for collision checks against template scaffolding and for
        leak audits.
        """
        out: dict[str, str] = {}
        for noun in NOUN_ROLES:
            for form in FORMS:
                out[f"{noun}.{form}"] = getattr(getattr(self, noun), form)
        for role in FIELD_ROLES:
            out[f"field.{role}"] = getattr(self.fields, role)
        for role in VERB_ROLES:
            out[f"verb.{role}"] = getattr(self.verbs, role)
        for role in ERROR_ROLES:
            out[f"error.{role}"] = render(split_words(getattr(self.errors, role)), "snake")
        for i, status in enumerate(self.statuses):
            out[f"status.{i}"] = status
        for i, category in enumerate(self.categories):
            out[f"category.{i}"] = category
        return out

    def to_dict(self) -> dict[str, Any]:
        """The JSON document this lexicon was validated from (schema order)."""
        return _section_dict(self)


_SECTION_REFS = frozenset(
    [("field", r) for r in FIELD_ROLES]
    + [("verb", r) for r in VERB_ROLES]
    + [("error", r) for r in ERROR_ROLES]
)
