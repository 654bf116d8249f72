"""Validation of one lexicon document against the schema in engine_contracts.md.

``validate_lexicon(data, policy)`` returns a :class:`Lexicon` or raises
:class:`LexiconError` at the first problem, naming the offending key. Unknown
keys are rejected so a typo never silently drops a role. Checks, in order:
shape and types, formats, identifier syntax, reserved words (every case form),
plurals, counts and duplicates, then collisions between roles.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .errors import LexiconError
from .model import (
    ERROR_ROLES,
    FIELD_ROLES,
    FORMS,
    NOUN_ROLES,
    SAMPLE_ROLES,
    UNIT_ROLES,
    VERB_ROLES,
    Errors,
    Fields,
    Lexicon,
    Noun,
    Samples,
    Units,
    Verbs,
)
from .naming import code_forms, compact, is_plural_of, split_words
from .reserved import (
    MARKER_WORDS,
    NODE_BUILTIN_MODULES,
    PYTHON_STDLIB_MODULES,
    RESERVED_WORDS,
    SCAFFOLD_WORDS,
)


@dataclass(frozen=True)
class LexiconPolicy:
    """Tunable bounds; defaults follow the spec (50+ lexicons) and issue 4."""

    min_lexicons: int = 50
    min_project_names: int = 3
    max_project_names: int = 8
    min_statuses: int = 4
    max_statuses: int = 6
    min_categories: int = 3
    max_categories: int = 5
    min_samples: int = 3
    max_samples: int = 8
    min_log_phrases: int = 3
    max_log_phrases: int = 8
    max_identifier_length: int = 32
    max_project_name_length: int = 20
    max_sample_length: int = 40


DEFAULT_POLICY = LexiconPolicy()

TOP_LEVEL_KEYS: tuple[str, ...] = (
    "key", "domain", "project_names", *NOUN_ROLES, "fields", "units", "verbs",
    "statuses", "categories", "errors", "samples", "log_phrases",
)

# Words are two or more ASCII letters: every case style then converts back
# losslessly with any reasonable word splitter (digits are split differently by
# different tools: "co2_level" may come back as "co_2_level").
IDENTIFIER_RE = re.compile(r"[a-z]{2,}(?:_[a-z]{2,})*")
KEY_RE = re.compile(r"[a-z][a-z0-9]*(?:-[a-z0-9]+)*")
DOMAIN_RE = re.compile(r"[a-z][a-z0-9]*(?:[ \-][a-z0-9]+)*")
ERROR_NAME_RE = re.compile(r"(?:[A-Z][a-z]+){2,}")
CURRENCY_RE = re.compile(r"[A-Z]{3}")
UNIT_TEXT_RE = re.compile(r"[a-z][a-z0-9]*(?:[ \-][a-z0-9]+)*")
RATE_RE = re.compile(r"[a-z][a-z0-9]*(?:[ \-][a-z0-9]+)* per [a-z]+")
SAMPLE_IDENTIFIER_RE = re.compile(r"[A-Z0-9][A-Za-z0-9]*(?:[-/.][A-Za-z0-9]+)*")
# Labels are embedded in string literals of every target language, so quotes,
# backslashes, dollar signs and braces are excluded.
SAMPLE_LABEL_RE = re.compile(r"[A-Z0-9][A-Za-z0-9]*(?:[ .&,\-/][ ]?[A-Za-z0-9]+)*\.?")
LOG_PHRASE_RE = re.compile(r"[a-z0-9]+(?:[ ,:\-/][ ]?[a-z0-9]+)*")
DURATION_UNITS = frozenset({"milliseconds", "seconds", "minutes", "hours", "days", "weeks"})


def validate_lexicon(data: Any, policy: LexiconPolicy = DEFAULT_POLICY) -> Lexicon:
    """Check ``data`` (a parsed JSON document) and build the :class:`Lexicon`."""
    doc = _object(data, "$", TOP_LEVEL_KEYS)

    key = _text(doc["key"], "key")
    _match(KEY_RE, key, "key", "kebab-case ASCII (e.g. 'cold-chain-logistics')")
    domain = _text(doc["domain"], "domain")
    _match(DOMAIN_RE, domain, "domain", "lower-case words")
    _markers(domain, "domain")

    project_names = _strings(doc["project_names"], "project_names",
                             policy.min_project_names, policy.max_project_names)
    for i, project in enumerate(project_names):
        _project_name(project, f"project_names[{i}]", policy)

    nouns = {role: _noun(doc[role], role, policy) for role in NOUN_ROLES}

    field_doc = _object(doc["fields"], "fields", FIELD_ROLES)
    field_values = {r: _identifier(field_doc[r], f"fields.{r}", policy) for r in FIELD_ROLES}

    unit_doc = _object(doc["units"], "units", UNIT_ROLES)
    units = Units(**{r: _text(unit_doc[r], f"units.{r}") for r in UNIT_ROLES})
    _units(units)

    verb_doc = _object(doc["verbs"], "verbs", VERB_ROLES)
    verb_values = {r: _identifier(verb_doc[r], f"verbs.{r}", policy) for r in VERB_ROLES}

    statuses = _strings(doc["statuses"], "statuses", policy.min_statuses, policy.max_statuses)
    for i, status in enumerate(statuses):
        _identifier(status, f"statuses[{i}]", policy)
    categories = _strings(doc["categories"], "categories",
                          policy.min_categories, policy.max_categories)
    for i, category in enumerate(categories):
        _identifier(category, f"categories[{i}]", policy)

    error_doc = _object(doc["errors"], "errors", ERROR_ROLES)
    error_values = {r: _error_name(error_doc[r], f"errors.{r}") for r in ERROR_ROLES}

    sample_doc = _object(doc["samples"], "samples", SAMPLE_ROLES)
    samples = Samples(
        identifier=_samples(sample_doc["identifier"], "samples.identifier",
                            SAMPLE_IDENTIFIER_RE, policy),
        label=_samples(sample_doc["label"], "samples.label", SAMPLE_LABEL_RE, policy),
    )

    log_phrases = _strings(doc["log_phrases"], "log_phrases",
                           policy.min_log_phrases, policy.max_log_phrases)
    for i, phrase in enumerate(log_phrases):
        _match(LOG_PHRASE_RE, phrase, f"log_phrases[{i}]", "lower-case words")
        _markers(phrase, f"log_phrases[{i}]")

    _collisions(nouns, field_values, verb_values, statuses, categories, error_values)

    return Lexicon(
        key=key,
        domain=domain,
        project_names=project_names,
        fields=Fields(**field_values),
        units=units,
        verbs=Verbs(**verb_values),
        statuses=statuses,
        categories=categories,
        errors=Errors(**error_values),
        samples=samples,
        log_phrases=log_phrases,
        **nouns,
    )


# -- shape --------------------------------------------------------------


def _object(value: Any, path: str, keys: Sequence[str]) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise LexiconError("not_an_object", path, f"expected an object, got {type(value).__name__}")
    for name in value:
        if name not in keys:
            raise LexiconError("unknown_key", _join(path, str(name)),
                               f"not part of the schema; expected one of {', '.join(keys)}")
    for name in keys:
        if name not in value:
            raise LexiconError("missing_key", _join(path, name), "required key is missing")
    return value


def _join(path: str, name: str) -> str:
    return name if path == "$" else f"{path}.{name}"


def _text(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise LexiconError("wrong_type", path, f"expected a string, got {type(value).__name__}")
    return value


def _strings(value: Any, path: str, low: int, high: int) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise LexiconError("wrong_type", path, f"expected a list, got {type(value).__name__}")
    items = tuple(_text(v, f"{path}[{i}]") for i, v in enumerate(value))
    if not low <= len(items) <= high:
        raise LexiconError("bad_count", path, f"expected {low}..{high} values, got {len(items)}")
    seen: set[str] = set()
    for i, item in enumerate(items):
        if item in seen:
            raise LexiconError("duplicate_value", f"{path}[{i}]", f"{item!r} appears twice")
        seen.add(item)
    return items


def _match(pattern: re.Pattern[str], value: str, path: str, expected: str) -> None:
    if not pattern.fullmatch(value):
        raise LexiconError("bad_format", path, f"{value!r} is not {expected}")


def _markers(text: str, path: str) -> None:
    words = set(re.findall(r"[a-z0-9]+", text.lower())) | set(split_words(text))
    hit = sorted(words & MARKER_WORDS)
    if hit:
        raise LexiconError("marker_word", path, f"contains staging marker word {hit[0]!r}")


# -- identifiers --------------------------------------------------------


def _identifier(value: Any, path: str, policy: LexiconPolicy) -> str:
    text = _text(value, path)
    if not IDENTIFIER_RE.fullmatch(text) or len(text) > policy.max_identifier_length:
        raise LexiconError(
            "bad_identifier", path,
            f"{text!r} is not lower snake_case ASCII of at most "
            f"{policy.max_identifier_length} characters, words of two or more letters",
        )
    _markers(text, path)
    _not_reserved(text, path)
    _not_standard_module(text, path)
    return text


def _not_standard_module(text: str, path: str) -> None:
    # Templates may name module files after any role (flat layouts put them at
    # the import root), where e.g. inspect.py would shadow the standard module
    # the test runner itself imports.
    if text in PYTHON_STDLIB_MODULES or text in NODE_BUILTIN_MODULES:
        raise LexiconError("reserved_word", path,
                           f"{text!r} would shadow a Python or Node.js standard module")


def _not_reserved(text: str, path: str) -> None:
    for form in code_forms(text):
        if form in RESERVED_WORDS:
            raise LexiconError("reserved_word", path,
                               f"{text!r} renders as {form!r}, a keyword, builtin or global")
    if text in SCAFFOLD_WORDS:
        raise LexiconError("reserved_word", path,
                           f"{text!r} is a generic scaffold word templates use themselves")


def _project_name(value: str, path: str, policy: LexiconPolicy) -> None:
    if not IDENTIFIER_RE.fullmatch(value) or len(value) > policy.max_project_name_length:
        raise LexiconError("bad_identifier", path,
                           f"{value!r} is not a lower snake_case package name of at most "
                           f"{policy.max_project_name_length} characters")
    _markers(value, path)
    _not_reserved(value, path)
    _not_standard_module(value, path)


def _noun(value: Any, path: str, policy: LexiconPolicy) -> Noun:
    doc = _object(value, path, FORMS)
    singular = _identifier(doc["singular"], f"{path}.singular", policy)
    plural = _identifier(doc["plural"], f"{path}.plural", policy)
    if not is_plural_of(singular, plural):
        raise LexiconError("bad_plural", f"{path}.plural",
                           f"{plural!r} is not an English plural of {singular!r}")
    return Noun(singular=singular, plural=plural)


def _error_name(value: Any, path: str) -> str:
    text = _text(value, path)
    if not ERROR_NAME_RE.fullmatch(text):
        raise LexiconError("bad_error_name", path,
                           f"{text!r} is not PascalCase of at least two words")
    _markers(text, path)
    _not_reserved(text, path)
    return text


# -- formats ------------------------------------------------------------


def _units(units: Units) -> None:
    _match(CURRENCY_RE, units.amount, "units.amount", "an ISO 4217 currency code")
    _match(UNIT_TEXT_RE, units.quantity, "units.quantity", "a lower-case unit name")
    if units.duration not in DURATION_UNITS:
        raise LexiconError("bad_format", "units.duration",
                           f"{units.duration!r} is not one of {', '.join(sorted(DURATION_UNITS))}")
    _match(RATE_RE, units.rate, "units.rate", "'<unit> per <period>'")
    for role in UNIT_ROLES:
        _markers(getattr(units, role), f"units.{role}")


def _samples(value: Any, path: str, pattern: re.Pattern[str],
             policy: LexiconPolicy) -> tuple[str, ...]:
    items = _strings(value, path, policy.min_samples, policy.max_samples)
    for i, item in enumerate(items):
        if len(item) > policy.max_sample_length:
            raise LexiconError("bad_format", f"{path}[{i}]",
                               f"longer than {policy.max_sample_length} characters")
        _match(pattern, item, f"{path}[{i}]",
               "plain ASCII without quotes, backslashes, dollars or braces")
        _markers(item, f"{path}[{i}]")
    return items


# -- collisions ---------------------------------------------------------


def _collisions(
    nouns: Mapping[str, Noun],
    field_values: Mapping[str, str],
    verb_values: Mapping[str, str],
    statuses: Sequence[str],
    categories: Sequence[str],
    error_values: Mapping[str, str],
) -> None:
    """No two role values may coincide once re-cased (compact form)."""
    named: list[tuple[str, str]] = []
    for role, noun in nouns.items():
        named += [(f"{role}.singular", noun.singular), (f"{role}.plural", noun.plural)]
    named += [(f"fields.{r}", v) for r, v in field_values.items()]
    named += [(f"verbs.{r}", v) for r, v in verb_values.items()]
    named += [(f"statuses[{i}]", v) for i, v in enumerate(statuses)]
    named += [(f"categories[{i}]", v) for i, v in enumerate(categories)]
    named += [(f"errors.{r}", v) for r, v in error_values.items()]
    owner_of: dict[str, str] = {}
    for path, value in named:
        form = compact(value)
        if form in owner_of:
            raise LexiconError("collision", path,
                               f"{value!r} collides with {owner_of[form]} after re-casing")
        owner_of[form] = path
