"""Template model: the spec every template declares, the base class and the registry.

A template is an application archetype (a paginated API behind a cache, a booking
ledger...) that knows how to build one codebase blueprint for a given draw.  The
engine does everything else (layout, scaffolding, injection, patches, history,
oracle packaging, gates).  See ``challenges/engine/AUTHORING.md``.

Contract:
- ``TemplateSpec`` is static metadata; ``validate_spec`` rejects anything the
  rotation, fingerprint or release logic could not use.
- ``Template.build(ctx)`` must be a pure function of ``ctx`` (no clock, no global
  random): rebuilding from a recorded draw must reproduce every byte.
- ``@register`` adds a template class to the process-wide registry keyed by slug.
"""

from __future__ import annotations

import abc
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar

from challenges.engine.errors import TemplateError

if TYPE_CHECKING:
    from challenges.engine.context import BuildContext
    from challenges.engine.ir import Blueprint
    from challenges.engine.naming import LexiconView

STRUCTURES: tuple[str, ...] = ("flat", "nested", "domain-driven", "layer-driven")
STYLES: tuple[str, ...] = ("functional", "object-oriented", "procedural")
BUG_LEVELS: tuple[str, ...] = ("utility", "orchestrator", "layer-boundary")
HERRING_KINDS: tuple[str, ...] = ("misleading-log", "misleading-test", "suspicious-commit")
FAMILIES: tuple[str, ...] = (
    "logic-boundary",
    "concurrency-ordering",
    "caching-staleness",
    "type-numeric-coercion",
    "api-misuse",
    "resource-error-handling",
    "state-machine",
)
TIERS: tuple[int, ...] = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class Slot:
    """A template-specific variable slot: one of ``choices`` is drawn per instance."""

    name: str
    choices: tuple[str | int | float | bool, ...]
    description: str = ""


@dataclass(frozen=True)
class FactToken:
    """A distinctive phrase of the hidden fact (may contain ``{{name}}`` placeholders).

    The leak audit asserts the rendered phrase appears in no agent-visible file
    except the declared anchors (workspace paths after layout, as module keys).
    """

    phrase: str
    anchors: tuple[str, ...] = ()


@dataclass(frozen=True)
class TemplateSpec:
    """Static description of a template (spec 003 "Template Architecture").

    ``bug_levels``/``structures``/``styles`` are the structural slots the template
    supports; ``canaries`` and ``red_herrings`` are the names it offers (the draw
    picks among them); ``tier`` drives the canary rule (tier >= 3: at least 1,
    tiers 4-5: 2-3) and size rule (tier >= 3: >= 6 source files, >= 400 lines).
    """

    slug: str
    title: str
    family: str
    bug_class: str
    bug_type: str
    solution_approach: str
    tier: int
    languages: tuple[str, ...]
    key_concepts: tuple[str, ...]
    architecture: str
    structures: tuple[str, ...] = STRUCTURES
    styles: tuple[str, ...] = STYLES
    bug_levels: tuple[str, ...] = ("orchestrator",)
    variable_slots: tuple[Slot, ...] = ()
    canaries: tuple[str, ...] = ()
    red_herrings: tuple[str, ...] = ()
    fact_tokens: tuple[FactToken, ...] = ()
    residue_paths: tuple[str, ...] = ()
    description: str = ""
    weight: float = 1.0
    extra: dict[str, str] = field(default_factory=dict)

    def canary_range(self) -> tuple[int, int]:
        """(min, max) canaries an instance of this tier carries (spec 003, Strategy 5)."""
        if self.tier >= 4:
            return (2, 3)
        if self.tier == 3:
            return (1, 3)
        return (0, 3)


def validate_spec(spec: TemplateSpec) -> None:
    """Raise TemplateError (code ``template_invalid``) naming the bad field."""

    def bad(field_name: str, message: str) -> TemplateError:
        return TemplateError("template_invalid", f"{spec.slug or '?'}: {message}", field=field_name)

    if not spec.slug or not spec.slug.replace("-", "").isalnum() or spec.slug.lower() != spec.slug:
        raise bad("slug", "slug must be lower-case kebab")
    if spec.family not in FAMILIES:
        raise bad("family", f"unknown family {spec.family!r}")
    if spec.tier not in TIERS:
        raise bad("tier", "tier must be 1..5")
    if not spec.languages:
        raise bad("languages", "at least one language")
    for name, values, allowed in (
        ("structures", spec.structures, STRUCTURES),
        ("styles", spec.styles, STYLES),
        ("bug_levels", spec.bug_levels, BUG_LEVELS),
        ("red_herrings", spec.red_herrings, HERRING_KINDS),
    ):
        if name != "red_herrings" and not values:
            raise bad(name, "must not be empty")
        unknown = [v for v in values if v not in allowed]
        if unknown:
            raise bad(name, f"unknown values {unknown}")
    low, _high = spec.canary_range()
    if len(spec.canaries) < low:
        raise bad("canaries", f"tier {spec.tier} needs at least {low} canaries offered")
    for slot in spec.variable_slots:
        if not slot.choices:
            raise bad("variable_slots", f"slot {slot.name!r} has no choices")


class Template(abc.ABC):
    """Base class of every template.

    Subclasses set ``spec`` and implement ``build``.  ``build`` returns a
    ``Blueprint`` (modules, tests, oracle tests, sites, fixes, canaries, red
    herrings, history features) for the draw in ``ctx``.
    """

    spec: ClassVar[TemplateSpec]

    def accepts(self, lex: LexiconView) -> bool:
        """Whether this template can generate clean code with ``lex`` (default: any)."""
        return True

    @abc.abstractmethod
    def build(self, ctx: BuildContext) -> Blueprint:
        """Return the blueprint of one instance; must be deterministic in ``ctx``."""


_REGISTRY: dict[str, type[Template]] = {}


def register(cls: type[Template]) -> type[Template]:
    """Class decorator adding a template to the registry (duplicate slugs are an error)."""
    spec = getattr(cls, "spec", None)
    if not isinstance(spec, TemplateSpec):
        raise TemplateError("template_invalid", f"{cls.__name__} has no TemplateSpec", field="spec")
    validate_spec(spec)
    existing = _REGISTRY.get(spec.slug)
    if existing is not None and existing is not cls:
        if f"{existing.__module__}.{existing.__qualname__}" != f"{cls.__module__}.{cls.__qualname__}":
            raise TemplateError("template_duplicate", f"slug {spec.slug!r} already registered", field="slug")
    _REGISTRY[spec.slug] = cls
    return cls


def registry() -> dict[str, type[Template]]:
    """All registered templates by slug (imports the bundled template package first)."""
    from challenges.engine import templates  # noqa: F401  (import registers bundled templates)

    templates.load_all()
    return dict(sorted(_REGISTRY.items()))


def get_template(slug: str) -> Template:
    """Instantiate the template registered under ``slug``."""
    cls = registry().get(slug)
    if cls is None:
        raise TemplateError("template_unknown", f"no template {slug!r}", field="template")
    return cls()
