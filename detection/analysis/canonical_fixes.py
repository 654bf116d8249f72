"""Canonical matching of a patch's changed functions (spec 003 Strategy 4, "Known
Pattern Matching").

A *canonical fix* is a textbook or memorised fix of one bug type: the function
before and after the fix, in one language. The shipped library
(``data/canonical_fixes.jsonl``, :func:`load_library`) holds the textbook fixes
of bug patterns of the known-contamination corpus (``corpus_key`` names the
corpus entry) and the fix shapes a model memorises for each template family
(``family``: check moved under the lock, ``<=``↔``<`` bounds, round-half-even,
release in ``finally``, re-validate after ``await``…). Staff add entries in
the same format.

**Entry format** (one JSON object per line; :func:`parse_entry` validates and
raises :class:`CanonicalLibraryError` naming the field):

=============  ===============================================================
``id``         unique, stable (``two-sum/py``)
``bug_type``   the bug type it fixes (a corpus ``bug_type`` or a family name)
``language``   a supported language (``python``, ``javascript``…)
``after``      the fixed function (required, must parse)
``before``     the buggy function ("" when unknown; must parse when given)
``title``      one line staff read in a finding
``family``     the template family, or null
``corpus_key`` the contamination-corpus entry, or null
``source``     ``textbook`` | ``memorised-shape`` | ``staff``
=============  ===============================================================

:func:`match_patch` applies the patch to the workspace in memory, takes the
functions it changes before and after (:func:`.patches.changed_functions`),
normalises them, and compares them with every entry of the language (and bug
type, when given):

* ``distance`` = ``1 −`` pair similarity (:mod:`.distance`) of the patched
  functions and the entry's ``after``; the spec's levels: < 0.10 ``strong``,
  < 0.20 ``moderate`` (:class:`~.canonical.CanonicalParams`);
* ``shape`` – how much of the entry's *change* the patch makes too: the edit
  script from ``before`` to ``after`` over normal-form tokens reduced to their
  construct (names and literal values dropped, operators kept), as signed
  token trigrams (``-`` removed, ``+`` added); ``shape`` is the share
  of the entry's trigrams found in the patch's. A patch that turns ``<=`` into
  ``<`` in an unrelated function has shape 1.0 against the ``<=``→``<`` entry
  but a large distance: the shape says *what kind of fix*, the distance says
  *this very solution*. ``shape_match`` is ``shape ≥ shape_at_least``
  (0.8) with at least ``shape_min_grams`` (1) trigrams on the entry's side.

The best match is the smallest distance (ties: larger shape); every compared
entry is kept as evidence with its normal forms' digests.
"""

from __future__ import annotations

import difflib
import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .analyse import AnalysedSolution, AnalysisParams, analyse_source, analyse_tree
from .canonical import CanonicalParams, match_level
from .distance import pair_similarity
from .errors import AnalysisError, InvalidParameterError
from .fingerprints import tokens
from .languages import get_language
from .parsing import ParseFailure
from .patches import ChangedFunction, changed_functions

LIBRARY_PATH = Path(__file__).parent / "data" / "canonical_fixes.jsonl"
SOURCES = frozenset(["textbook", "memorised-shape", "staff"])


class CanonicalLibraryError(AnalysisError):
    code = "analysis_canonical_invalid"


@dataclass(frozen=True)
class CanonicalFix:
    id: str
    bug_type: str
    language: str
    after: str
    before: str = ""
    title: str = ""
    family: str | None = None
    corpus_key: str | None = None
    source: str = "staff"

    def as_dict(self) -> dict[str, object]:
        return {"id": self.id, "bug_type": self.bug_type, "language": self.language, "title": self.title,
                "family": self.family, "corpus_key": self.corpus_key, "source": self.source,
                "before": self.before, "after": self.after}


def parse_entry(data: Mapping[str, object], *, where: str = "entry") -> CanonicalFix:
    """Validate one library entry (a mapping as read from JSON)."""
    def text(name: str, required: bool = True) -> str:
        value = data.get(name, "" if not required else None)
        if value is None and not required:
            return ""
        if not isinstance(value, str) or (required and not value.strip()):
            raise CanonicalLibraryError(f"{where}: {name!r} must be a non-empty string", field=name)
        return value

    def optional(name: str) -> str | None:
        value = data.get(name)
        if value is not None and not isinstance(value, str):
            raise CanonicalLibraryError(f"{where}: {name!r} must be a string or null", field=name)
        return value

    unknown = set(data) - {"id", "bug_type", "language", "after", "before", "title", "family", "corpus_key",
                           "source"}
    if unknown:
        raise CanonicalLibraryError(f"{where}: unknown fields {sorted(unknown)}", field=sorted(unknown)[0])
    entry = CanonicalFix(id=text("id"), bug_type=text("bug_type"), language=text("language"), after=text("after"),
                         before=text("before", required=False), title=text("title", required=False),
                         family=optional("family"), corpus_key=optional("corpus_key"),
                         source=text("source", required=False) or "staff")
    try:
        get_language(entry.language)
    except AnalysisError:
        raise CanonicalLibraryError(f"{where}: unknown language {entry.language!r}", field="language") from None
    if entry.source not in SOURCES:
        raise CanonicalLibraryError(f"{where}: source must be one of {sorted(SOURCES)}", field="source")
    for name in ("after", "before"):
        code = getattr(entry, name)
        if code and isinstance(analyse_source(entry.id, code, entry.language), ParseFailure):
            raise CanonicalLibraryError(f"{where}: {name!r} does not parse as {entry.language}", field=name)
    return entry


def load_library(path: str | Path = LIBRARY_PATH) -> list[CanonicalFix]:
    """Read a JSON Lines library; ids must be unique."""
    out: list[CanonicalFix] = []
    seen: set[str] = set()
    for number, line in enumerate(Path(path).read_text("utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise CanonicalLibraryError(f"line {number}: not JSON ({error.msg})", field="library") from None
        if not isinstance(data, dict):
            raise CanonicalLibraryError(f"line {number}: not an object", field="library")
        entry = parse_entry(data, where=f"line {number}")
        if entry.id in seen:
            raise CanonicalLibraryError(f"line {number}: duplicate id {entry.id!r}", field="id")
        seen.add(entry.id)
        out.append(entry)
    return out


@dataclass(frozen=True)
class FixShapeParams:
    shape_at_least: float = 0.8
    shape_min_grams: int = 1

    def __post_init__(self) -> None:
        if not 0.0 <= self.shape_at_least <= 1.0:
            raise InvalidParameterError("shape_at_least must be within [0, 1]", field="shape_at_least")
        if self.shape_min_grams < 1:
            raise InvalidParameterError("shape_min_grams must be at least 1", field="shape_min_grams")


OPERATOR_KINDS = frozenset(["cmp", "binop", "augassign", "unary", "lit"])


def shape_token(token: str) -> str:
    """A token reduced to its construct: names, library names and literal values
    go (``call id=len`` → ``call id``); operators stay (``cmp=<=``)."""
    kind, _, _ = token.partition("=")
    return token if kind in OPERATOR_KINDS else kind


def change_shape(before: Sequence[str], after: Sequence[str]) -> frozenset[tuple[str, ...]]:
    """Signed trigrams of :func:`shape_token` over the edit script from ``before`` to ``after``."""
    before = [shape_token(t) for t in before]
    after = [shape_token(t) for t in after]
    grams: set[tuple[str, ...]] = set()
    matcher = difflib.SequenceMatcher(None, list(before), list(after), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        for sign, run in (("-", before[i1:i2]), ("+", after[j1:j2])):
            if not run:
                continue
            if len(run) < 3:
                grams.add((sign, *run))
            for k in range(len(run) - 2):
                grams.add((sign, *run[k:k + 3]))
    return frozenset(grams)


@dataclass(frozen=True)
class FixMatch:
    entry: str
    bug_type: str
    title: str
    level: str | None  # strong | moderate | None
    distance: float
    containment: float
    structural: float
    shape: float
    shape_match: bool

    @property
    def similarity(self) -> float:
        return 1.0 - self.distance

    def as_dict(self) -> dict[str, object]:
        return {"entry": self.entry, "bug_type": self.bug_type, "title": self.title, "level": self.level,
                "distance": round(self.distance, 4), "similarity": round(self.similarity, 4),
                "containment": round(self.containment, 4), "structural": round(self.structural, 4),
                "shape": round(self.shape, 4), "shape_match": self.shape_match}


@dataclass(frozen=True)
class PatchCanonicalReport:
    """Canonical matching of one patch: the best entry and every compared one."""

    functions: tuple[ChangedFunction, ...]
    matches: tuple[FixMatch, ...]  # best first
    errors: tuple[ParseFailure, ...] = ()
    thresholds: dict[str, float] = field(default_factory=dict)

    @property
    def best(self) -> FixMatch | None:
        return self.matches[0] if self.matches else None

    @property
    def level(self) -> str | None:
        return self.best.level if self.best else None

    def as_dict(self, top: int = 5) -> dict[str, object]:
        return {
            "level": self.level,
            "best": self.best.as_dict() if self.best else None,
            "matches": [m.as_dict() for m in self.matches[:top]],
            "compared": len(self.matches),
            "functions": [{"path": f.path, "start_line": f.start_line, "end_line": f.end_line}
                          for f in self.functions],
            "errors": [e.as_dict() for e in self.errors],
            "thresholds": dict(self.thresholds),
        }


@functools.lru_cache(maxsize=4096)
def _prepared(entry: CanonicalFix, which: str, params: AnalysisParams) -> AnalysedSolution | None:
    """An entry's function analysed once per process: entries and parameters are frozen
    values, so the result is reused by every patch compared with them (the real-time path
    compares each evaluated submission with the whole library)."""
    code = getattr(entry, which)
    if not code:
        return None
    result = analyse_source(f"{entry.id}:{which}", code, entry.language, params)
    return None if isinstance(result, ParseFailure) else result


@functools.lru_cache(maxsize=4096)
def _entry_shape(entry: CanonicalFix, params: AnalysisParams) -> frozenset[tuple[str, ...]]:
    buggy, fixed = _prepared(entry, "before", params), _prepared(entry, "after", params)
    if buggy is None or fixed is None:
        return frozenset()
    return change_shape(tokens(buggy.tree), tokens(fixed.tree))


def match_patch(
    patch: str,
    workspace: Mapping[str, str],
    language: str,
    library: Iterable[CanonicalFix],
    *,
    bug_type: str | None = None,
    params: CanonicalParams = CanonicalParams(),
    shape_params: FixShapeParams = FixShapeParams(),
    analysis: AnalysisParams = AnalysisParams(),
) -> PatchCanonicalReport:
    """Compare the functions ``patch`` changes with the library (see the module docstring).

    Raises :class:`~.errors.PatchError` when the patch does not apply.
    """
    spec = get_language(language)
    after_unit = changed_functions(patch, workspace, language, side="after")
    before_unit = changed_functions(patch, workspace, language, side="before")
    after = analyse_tree("patch:after", after_unit.tree, spec.name, analysis)
    before = analyse_tree("patch:before", before_unit.tree, spec.name, analysis)
    patch_shape = change_shape(tokens(before.tree), tokens(after.tree))
    matches: list[FixMatch] = []
    for entry in library:
        if entry.language != spec.name or (bug_type is not None and entry.bug_type != bug_type):
            continue
        fixed = _prepared(entry, "after", analysis)
        if fixed is None:
            continue
        pair = pair_similarity(after.prepared, fixed.prepared, analysis.distance, names=("patch", entry.id))
        entry_shape = _entry_shape(entry, analysis)
        shape = len(entry_shape & patch_shape) / len(entry_shape) if entry_shape else 0.0
        shape_match = len(entry_shape) >= shape_params.shape_min_grams and shape >= shape_params.shape_at_least
        distance = pair.lower
        matches.append(FixMatch(entry.id, entry.bug_type, entry.title, match_level(distance, distance, params),
                                distance, pair.containment.value if pair.containment else 0.0,
                                pair.structural or 0.0, shape, shape_match))
    matches.sort(key=lambda m: (m.distance, -m.shape, m.entry))
    return PatchCanonicalReport(after_unit.functions, tuple(matches), after_unit.errors + before_unit.errors,
                                {"strong_below": params.strong_below, "moderate_below": params.moderate_below,
                                 "shape_at_least": shape_params.shape_at_least})
