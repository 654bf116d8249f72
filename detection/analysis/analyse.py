"""One call for a batch: parse, normalise, all pairs, convergence, canonical matches.

:func:`analyse_solutions` is what the post-bout batch check, the real-time
signal and the ``analyze_solutions`` command call. It never raises for a
solution that does not parse: that solution is listed in ``errors`` with the
parser's position and left out of the pairs. It raises
:class:`~.errors.AnalysisError` subclasses only for caller mistakes (unknown
language, bad parameters, duplicate names).
"""

from __future__ import annotations

import difflib
import hashlib
import sys
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field, replace

from .canonical import CanonicalMatch, CanonicalParams, canonical_matches
from .convergence import ConvergenceParams, ConvergenceResult, convergence
from .distance import DistanceParams, PairDistance, all_pairs
from .errors import InvalidParameterError, PatchError
from .languages import get_language
from .normalise import NormaliseOptions, normalise
from .parsing import ParseFailure, parse_source
from .patches import changed_functions
from .prepared import PreparedTree, prepare
from .sources import CanonicalSolution
from .tree import Node


@dataclass(frozen=True)
class AnalysisParams:
    normalise: NormaliseOptions = NormaliseOptions()
    distance: DistanceParams = DistanceParams()
    convergence: ConvergenceParams = ConvergenceParams()
    canonical: CanonicalParams = CanonicalParams()
    # trees are walked recursively; deep expressions (a 3,000-term sum) need room
    recursion_limit: int = 20_000


@contextmanager
def _room_for(depth: int) -> Iterator[None]:
    previous = sys.getrecursionlimit()
    if previous < depth:
        sys.setrecursionlimit(depth)
    try:
        yield
    finally:
        sys.setrecursionlimit(previous)


@dataclass
class AnalysedSolution:
    name: str
    language: str
    tree: Node  # the normal form
    prepared: PreparedTree

    @property
    def size(self) -> int:
        return self.prepared.size

    def as_dict(self) -> dict[str, object]:
        return {"name": self.name, "nodes": self.size, "digest": self.prepared.digest}


def analyse_tree(
    name: str, tree: Node, language: str, params: AnalysisParams = AnalysisParams(), *, in_place: bool = False
) -> AnalysedSolution:
    """Normalise an already lowered tree (e.g. :attr:`.patches.ChangedUnit.tree`)."""
    normal = normalise(tree, params.normalise, in_place=in_place)
    return AnalysedSolution(name, language, normal, prepare(normal))


def analyse_source(
    name: str, source: str | bytes, language: str, params: AnalysisParams = AnalysisParams()
) -> AnalysedSolution | ParseFailure:
    try:
        with _room_for(params.recursion_limit):
            parsed = parse_source(source, language, solution=name)
            if isinstance(parsed, ParseFailure):
                return parsed
            return analyse_tree(name, parsed, language, params, in_place=True)
    except RecursionError:
        return ParseFailure(name, 1, 1, "nested too deeply to analyse", code="analysis_too_deep")


def analyse_files(
    name: str, files: Sequence[tuple[str, str]], language: str, params: AnalysisParams = AnalysisParams()
) -> AnalysedSolution | ParseFailure:
    """One solution made of several files: each is parsed on its own (so error
    positions are per file) and the trees are analysed together.

    The files are joined in an order that depends on their content only (the
    digest of each lowered file), never on their names or the order given:
    splitting a solution into files, or renaming and reordering them, is no
    disguise."""
    lowered: list[tuple[str, list[Node]]] = []
    try:
        with _room_for(params.recursion_limit):
            for path, source in files:
                parsed = parse_source(source, language, solution=name)
                if isinstance(parsed, ParseFailure):
                    return replace(parsed, path=path, message=f"{path}: {parsed.message}")
                key = hashlib.sha256(parsed.sexpr().encode("utf-8")).hexdigest()
                lowered.append((key, parsed.children))
            parts = [child for _, children in sorted(lowered, key=lambda item: item[0]) for child in children]
            return analyse_tree(name, Node("module", children=parts), language, params, in_place=True)
    except RecursionError:
        return ParseFailure(name, 1, 1, "nested too deeply to analyse", code="analysis_too_deep")


@dataclass
class AnalysisReport:
    language: str
    solutions: list[AnalysedSolution]
    pairs: list[PairDistance]
    convergence: ConvergenceResult
    canonical_matches: list[CanonicalMatch] = field(default_factory=list)
    errors: list[ParseFailure] = field(default_factory=list)

    rules: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, object]:
        return {
            "language": self.language,
            "rules": list(self.rules),
            "solutions": [s.as_dict() for s in self.solutions],
            "pairs": [p.as_dict() for p in self.pairs],
            "convergence": self.convergence.as_dict(),
            "canonical_matches": [m.as_dict() for m in self.canonical_matches],
            "errors": [e.as_dict() for e in self.errors],
        }


def _named(solutions: Mapping[str, str] | Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    items = list(solutions.items()) if isinstance(solutions, Mapping) else list(solutions)
    names = [n for n, _ in items]
    if len(set(names)) != len(names):
        raise InvalidParameterError("solution names must be unique", field="solutions")
    return items


def analyse_solutions(
    solutions: Mapping[str, str] | Sequence[tuple[str, str]],
    language: str,
    *,
    tier: int | None = None,
    canonical: Sequence[CanonicalSolution] = (),
    bug_type: str | None = None,
    params: AnalysisParams = AnalysisParams(),
) -> AnalysisReport:
    """Analyse a batch of solution sources written in ``language``."""
    get_language(language)
    analysed: list[AnalysedSolution] = []
    errors: list[ParseFailure] = []
    for name, source in _named(solutions):
        result = analyse_source(name, source, language, params)
        (errors if isinstance(result, ParseFailure) else analysed).append(result)  # type: ignore[arg-type]
    return analyse_prepared(analysed, language, tier=tier, canonical=canonical, bug_type=bug_type,
                            params=params, errors=errors)


def analyse_prepared(
    analysed: Sequence[AnalysedSolution],
    language: str,
    *,
    tier: int | None = None,
    canonical: Sequence[CanonicalSolution] = (),
    bug_type: str | None = None,
    params: AnalysisParams = AnalysisParams(),
    errors: Sequence[ParseFailure] = (),
) -> AnalysisReport:
    """Pairs, convergence and canonical matches of already analysed solutions."""
    failures = list(errors)
    library: list[tuple[str, str, PreparedTree]] = []
    for item in canonical:
        result = analyse_source(f"canonical:{item.name}", item.source, language, params)
        if isinstance(result, ParseFailure):
            failures.append(result)
        else:
            library.append((item.name, item.bug_type, result.prepared))
    trees = [(s.name, s.prepared) for s in analysed]
    with _room_for(params.recursion_limit):
        pairs = all_pairs(trees, params.convergence.thresholds, params.distance)
        matches = canonical_matches(trees, library, bug_type=bug_type, params=params.canonical,
                                    distance_params=params.distance) if library else []
    result_convergence = convergence(pairs, tier, params.convergence)
    rules = tuple(name for name, on in vars(params.normalise).items() if on)
    return AnalysisReport(language, list(analysed), pairs, result_convergence, matches, failures, rules)


def analyse_patches(
    patches: Mapping[str, str] | Sequence[tuple[str, str]],
    workspace: Mapping[str, str],
    language: str,
    *,
    tier: int | None = None,
    canonical: Sequence[CanonicalSolution] = (),
    bug_type: str | None = None,
    params: AnalysisParams = AnalysisParams(),
) -> AnalysisReport:
    """Convergence of submitted patches on the functions they change (spec 003
    "Post-Bout Detection", cross-agent convergence).

    Each patch is applied to ``workspace`` in memory and only the functions it
    changes are compared (:func:`.patches.changed_functions`): the unchanged
    workspace code every agent shares would otherwise make every pair look
    alike. A patch that does not apply, or whose patched file does not parse,
    is listed in ``errors`` (code ``analysis_patch_invalid`` or the parser's)
    and left out of the pairs.
    """
    spec = get_language(language)
    analysed: list[AnalysedSolution] = []
    errors: list[ParseFailure] = []
    for name, patch in _named(patches):
        try:
            unit = changed_functions(patch, workspace, spec.name)
        except PatchError as error:
            errors.append(ParseFailure(name, 1, 1, error.message, code=error.code))
            continue
        if unit.errors:
            first = unit.errors[0]
            errors.append(replace(first, solution=name, path=first.solution,
                                  message=f"{first.solution}: {first.message}"))
            continue
        with _room_for(params.recursion_limit):
            analysed.append(analyse_tree(name, unit.tree, spec.name, params, in_place=True))
    return analyse_prepared(analysed, spec.name, tier=tier, canonical=canonical, bug_type=bug_type,
                            params=params, errors=errors)


def normal_form_diff(a: AnalysedSolution, b: AnalysedSolution, context: int = 2) -> str:
    """A unified diff of two normal forms, one node per line, indented by depth:
    what is left between two solutions once every disguise is removed."""
    def lines(node: Node, depth: int, out: list[str]) -> list[str]:
        out.append("  " * depth + node.label)
        for child in node.children:
            lines(child, depth + 1, out)
        return out

    with _room_for(AnalysisParams().recursion_limit):
        left, right = lines(a.tree, 0, []), lines(b.tree, 0, [])
    return "\n".join(difflib.unified_diff(left, right, a.name, b.name, n=context, lineterm=""))
