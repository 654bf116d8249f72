"""Codebase IR: what a template hands the engine for one instance.

A ``Blueprint`` is language-specific source text organised as modules with roles,
imports between modules expressed as IR (the emitter renders them for the
drawn layout), and named *sites* — the places whose text differs between the
shipped code, the gold fix, the alternative fixes, the canary "fixes" and the
red-herring variants.

Placeholder syntax inside ``Module.text`` and snippets (see ``render.py``):
- ``{{name}}``     an identifier/text from ``Blueprint.names``;
- ``{{!site}}``    a site; replaced by the snippet chosen for the variant being
                   rendered.  Multi-line snippets are indented to the
                   placeholder's column; an empty snippet on its own line removes
                   the line;
- ``{{imports}}``  where the emitter writes this module's project imports;
- ``{{[}}`` / ``{{]}}``  optional explicit mutation region in the bug module
                   (default: the gold snippet's lines).
"""

from __future__ import annotations

from dataclasses import dataclass, field

ROLES: tuple[str, ...] = (
    "model",  # records and value objects
    "errors",  # domain exceptions
    "config",  # settings loading
    "util",  # small helpers (keys, clocks, formatting)
    "storage",  # repositories, persistence
    "cache",  # caches, memoisation
    "service",  # orchestration / business logic
    "api",  # handlers, request/response boundary
    "events",  # queues, dispatch, subscribers
)


@dataclass(frozen=True)
class Import:
    """``names`` imported from the module with key ``module``."""

    module: str
    names: tuple[str, ...]


@dataclass(frozen=True)
class Module:
    """A source or test module.

    ``key`` is the template-internal id (imports refer to it; never emitted),
    ``stem`` the file name without extension, ``role`` one of ``ROLES`` for
    source modules (drives the directory under each structural variant),
    ``feature`` the history feature that introduces it.  Test modules have
    ``test=True``; hidden oracle tests additionally ``hidden=True``.
    """

    key: str
    stem: str
    text: str
    role: str = "util"
    imports: tuple[Import, ...] = ()
    feature: str = ""
    test: bool = False
    hidden: bool = False


@dataclass(frozen=True)
class Fix:
    """A correct fix: new snippets for some sites (sites not listed keep shipped text)."""

    label: str
    snippets: dict[str, str]
    description: str = ""


@dataclass(frozen=True)
class Symptom:
    """The bug as the people who meet it describe it: the raw material of the task statement.

    Every field is plain prose in the domain's words, written from the outside (what a
    user, an operator or a nightly job sees), never naming the fix, the faulty function
    or any identifier of the code around it.  ``compose`` (``statement.py``) picks fields
    by the precision the tier allows:

    - ``title``: a one-line headline ("Back-to-back bookings are refused");
    - ``action``: what the reporter did, an infinitive phrase ("book two back-to-back
      slots"); ``observed``: what happened, a clause ("the second one is refused");
      ``expected``: what should have happened, a sentence;
    - ``steps``: a precise reproduction (tiers 1-2), ``example``: concrete values seen;
    - ``impact``: why it matters to the reporter; ``vague``: the symptom alone, as a
      reporter who never isolated it would put it (tier 5);
    - ``log``: a log or error line an alert would quote (no code identifiers);
    - ``guess``: a plausible but wrong first theory (tier 5 may quote it);
    - ``intermittent``: the symptom shows only sometimes (timing, ordering).
    """

    title: str
    action: str
    observed: str
    expected: str
    steps: tuple[str, ...] = ()
    example: str = ""
    impact: str = ""
    vague: str = ""
    log: str = ""
    guess: str = ""
    intermittent: bool = False


@dataclass(frozen=True)
class Bug:
    """The injected bug: ``site`` ships ``Blueprint.sites[site]`` (faulty) and the gold fix
    restores ``gold.snippets[site]`` (the clean code).  ``alternatives`` must differ
    in form from the gold fix.  ``level`` is the drawn bug-site abstraction level.

    ``symptom`` feeds the task statement.  ``masking`` is a shallow wrong fix (it hides
    the symptom at the surface without curing the cause); the hidden tests must reject
    it.  ``invariant`` lists phrases that restate the rule the bug breaks: from tier 3 no
    comment, docstring or README sentence near the faulty code may contain one.

    ``faults`` names every site whose shipped text is faulty when the gold fix cures
    several cooperating faults at once (default: just ``site``, which must be among
    them).  Each fault alone must matter: the gold text at one fault's site with the
    shipped text at the others (a *partial fix*) must leave a hidden test failing.
    """

    site: str
    gold: Fix
    alternatives: tuple[Fix, ...]
    level: str
    summary: str
    location: str
    symptom: Symptom | None = None
    masking: Fix | None = None
    invariant: tuple[str, ...] = ()
    faults: tuple[str, ...] = ()

    @property
    def fault_sites(self) -> tuple[str, ...]:
        """The faulty sites, ``site`` first."""
        return (self.site, *(s for s in self.faults if s != self.site)) if self.faults else (self.site,)


@dataclass(frozen=True)
class Canary:
    """Correct code at ``site`` that looks like a well-known bug.

    ``naive_fix`` is the obvious-looking "fix" (replaces the site snippet);
    ``guard`` the name of the hidden test that passes on shipped code and fails
    on the naive fix."""

    name: str
    site: str
    description: str
    naive_fix: str
    guard: str


@dataclass(frozen=True)
class RedHerring:
    """A drawn distraction.

    - ``misleading-log``: ``snippets`` turn on a log line (site -> text);
    - ``misleading-test``: ``failing_tests`` are visible tests expected to fail on
      the shipped code (they surface the real bug through a misleading path);
    - ``suspicious-commit``: ``history_before`` gives earlier (correct) snippets
      of sites near the bug; a late commit with ``message`` moves them to their
      shipped text.
    """

    kind: str
    description: str
    snippets: dict[str, str] = field(default_factory=dict)
    failing_tests: tuple[str, ...] = ()
    history_before: dict[str, str] = field(default_factory=dict)
    message: str = ""


@dataclass(frozen=True)
class Feature:
    """A unit of history: a commit (or a few) adding the modules tagged with ``key``."""

    key: str
    message: str
    changelog: str


@dataclass
class Blueprint:
    """Everything the engine needs to emit one instance."""

    package: str
    summary: str
    modules: list[Module]
    tests: list[Module]
    oracle: list[Module]
    sites: dict[str, str]
    names: dict[str, str]
    bug: Bug
    canaries: list[Canary]
    red_herrings: list[RedHerring]
    features: list[Feature]
    settings: dict[str, object]
    readme_usage: str = ""
    readme_sections: list[tuple[str, str]] = field(default_factory=list)
    fact_tokens: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
