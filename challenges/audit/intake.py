"""The substrate intake gate (spec 000): three lower-is-better axes, 0-100, with reasons.

``intake_report(substrate, ...)`` scores a candidate codebase (a template's
emitted instance, or an imported app) on:

rig-confidence ("does this look staged?"), gated at ``IntakeParams.rig_threshold``
    points for staging markers, harness vocabulary, bolt-on modules (a source
    module nothing imports), implausible structure (fewer source files than the
    tier expects, one file holding most of the code) and test names that
    reveal the bug.  Each signal adds ``points`` per hit up to its ``cap``; the
    sum is capped at 100.  A substrate whose score is *above* the threshold
    cannot be activated.
recognisability, report-only by default
    name-stripped code (``codetokens``: identifiers, strings and numbers
    replaced by placeholders, comments dropped) compared with every reference
    (known-contamination corpus snippets and canonical solutions) by token
    n-gram overlap (``detection.analysis.ngram_overlap``): the share of the
    reference's n-grams found in the candidate, as a percentage; the maximum over
    references.  Callers can add recognisers (callables) that see the stripped
    text and the raw files, e.g. one backed by the fingerprint corpus.
memorisation, report-only by default
    a pluggable ``MemorisationProbe``.  The offline default
    (``NgramMemorisationProbe``) measures verbatim n-gram overlap (names kept)
    between the candidate and every reference.  ``CompletionMemorisationProbe``
    is the model-backed hook: give it any ``complete(prompt) -> text`` function
    (a closed-book model call); it asks, by project and file name only, for the
    content of the largest source files and scores the overlap of the answers
    with the real files.

Every number is a field of ``IntakeParams``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

from challenges.audit.checks.markers import marker_patterns
from challenges.audit.codetokens import code_tokens, language_of, stripped_text
from challenges.audit.errors import AuditError
from challenges.audit.target import DEFAULT_MARKERS, HARNESS_PHRASES, HARNESS_WORDS
from challenges.audit.text import WordIndex, compile_terms, longest_hits, words
from detection.analysis import ngram_overlap

TEST_PATH = re.compile(r"(^|/)(tests?|__tests__|spec)/|(^|/)test_[^/]*$|_test\.[a-z]+$|\.(test|spec)\.[a-z]+$")
ENTRY_POINTS = frozenset({"__init__", "__main__", "main", "cli", "index", "app", "server", "setup", "conftest",
                          "manage", "wsgi", "asgi", "config", "settings"})
BOLT_ON_LANGUAGES = frozenset({"python", "javascript", "typescript"})
REVEALING_TEST_WORDS: tuple[str, ...] = (
    "bug", "bugs", "buggy", "bugfix", "regression", "repro", "reproduce", "broken", "injected", "planted",
    "fixme", "hack", "should fail", "off by one", "known issue", "workaround",
)
_PY_TEST = re.compile(r"^\s*(?:async\s+)?def\s+(?P<name>test\w*)", re.M)
_JS_TEST = re.compile(r"\b(?:it|test)\s*\(\s*(['\"`])(?P<name>.+?)\1")
_IMPORT_LINE = re.compile(r"^\s*(?:from\s+\S+\s+import\s+.*|import\s+.*|export\s+.*\bfrom\b.*)$"
                          r"|require\(\s*['\"][^'\"]+['\"]\s*\)|import\(\s*['\"][^'\"]+['\"]\s*\)", re.M)


@dataclass(frozen=True)
class IntakeParams:
    rig_threshold: int = 60
    rig_gated: bool = True
    recognisability_threshold: int = 60
    recognisability_gated: bool = False  # report-only in v1 (spec 000)
    memorisation_threshold: int = 60
    memorisation_gated: bool = False  # report-only in v1 (spec 000)
    marker_points: int = 25
    marker_cap: int = 50
    harness_points: int = 15
    harness_cap: int = 45
    bolt_on_points: int = 15
    bolt_on_cap: int = 30
    min_source_files: Mapping[int, int] = field(default_factory=lambda: {1: 2, 2: 3, 3: 6, 4: 6, 5: 8})
    too_few_files_points: int = 20
    giant_file_share: float = 0.7  # one file holding more than this share of source lines
    giant_file_min_lines: int = 150
    giant_file_points: int = 20
    revealing_test_points: int = 10
    revealing_test_cap: int = 30
    revealing_test_words: tuple[str, ...] = REVEALING_TEST_WORDS
    recognisability_n: int = 12
    memorisation_n: int = 8

    def __post_init__(self) -> None:
        for name in ("rig_threshold", "recognisability_threshold", "memorisation_threshold"):
            if not 0 <= getattr(self, name) <= 100:
                raise AuditError("intake_param_invalid", f"{name} must be within 0..100", field=name)
        if self.recognisability_n < 1 or self.memorisation_n < 1:
            raise AuditError("intake_param_invalid", "n-gram sizes must be >= 1", field="recognisability_n")


@dataclass(frozen=True)
class Reference:
    """A known text: a contamination-corpus snippet or a canonical solution."""

    name: str
    text: str
    kind: str = "corpus"  # "corpus" | "canonical"
    language: str = "python"


@dataclass(frozen=True)
class Substrate:
    """A candidate codebase: ``files`` maps workspace paths to text."""

    files: Mapping[str, str]
    project_name: str = ""
    tier: int | None = None

    def source_paths(self) -> list[str]:
        return sorted(p for p in self.files if language_of(p) and not TEST_PATH.search(p))

    def test_paths(self) -> list[str]:
        return sorted(p for p in self.files if language_of(p) and TEST_PATH.search(p))


@dataclass(frozen=True)
class AxisScore:
    axis: str
    score: int
    reasons: tuple[str, ...]
    threshold: int
    gated: bool

    @property
    def passed(self) -> bool:
        return not self.gated or self.score <= self.threshold

    def to_dict(self) -> dict[str, Any]:
        return {"axis": self.axis, "score": self.score, "threshold": self.threshold, "gated": self.gated,
                "passed": self.passed, "reasons": list(self.reasons)}


@dataclass(frozen=True)
class IntakeReport:
    rig_confidence: AxisScore
    recognisability: AxisScore
    memorisation: AxisScore

    @property
    def activatable(self) -> bool:
        return all(axis.passed for axis in (self.rig_confidence, self.recognisability, self.memorisation))

    def to_dict(self) -> dict[str, Any]:
        return {"activatable": self.activatable, "rig_confidence": self.rig_confidence.to_dict(),
                "recognisability": self.recognisability.to_dict(), "memorisation": self.memorisation.to_dict()}


# ---------------------------------------------------------------- rig-confidence
def _capped(points: int, cap: int, hits: int) -> int:
    return min(cap, points * hits)


def _test_names(substrate: Substrate) -> list[tuple[str, str]]:
    out = []
    for path in substrate.test_paths():
        text = substrate.files[path]
        pattern = _PY_TEST if language_of(path) == "python" else _JS_TEST
        out += [(path, m.group("name")) for m in pattern.finditer(text)]
    return out


def _bolt_ons(substrate: Substrate) -> list[str]:
    referenced: set[str] = set()
    for path, text in substrate.files.items():
        if language_of(path) in BOLT_ON_LANGUAGES:
            for match in _IMPORT_LINE.finditer(text):
                referenced |= {w.text for w in words(match.group())}
                referenced |= {w for w in re.findall(r"[A-Za-z0-9_$-]+", match.group().lower())}
    bolt_ons = []
    for path in substrate.source_paths():
        if language_of(path) not in BOLT_ON_LANGUAGES:
            continue
        stem = path.rsplit("/", 1)[-1].split(".", 1)[0]
        if stem in ENTRY_POINTS or "__main__" in substrate.files[path]:
            continue
        if stem.lower() not in referenced:
            bolt_ons.append(path)
    return bolt_ons


def rig_confidence(substrate: Substrate, params: IntakeParams = IntakeParams()) -> AxisScore:
    reasons: list[str] = []
    total = 0
    whole_line, in_comment = marker_patterns(DEFAULT_MARKERS)
    marker_hits = [(p, m.group("m")) for p, t in sorted(substrate.files.items())
                   for m in [*whole_line.finditer(t), *in_comment.finditer(t)]]
    if marker_hits:
        points = _capped(params.marker_points, params.marker_cap, len(marker_hits))
        total += points
        reasons.append(f"+{points}: {len(marker_hits)} staging marker(s), e.g. {marker_hits[0][1]} in "
                       f"{marker_hits[0][0]}")
    matchers = compile_terms([*HARNESS_PHRASES, *HARNESS_WORDS])
    vocab = [(p, m.term) for p, t in sorted(substrate.files.items())
             for m, _ in longest_hits(WordIndex(t), matchers)]
    if vocab:
        points = _capped(params.harness_points, params.harness_cap, len(vocab))
        total += points
        reasons.append(f"+{points}: harness vocabulary {sorted({t for _, t in vocab})} in "
                       f"{len({p for p, _ in vocab})} file(s)")
    bolt = _bolt_ons(substrate)
    if bolt:
        points = _capped(params.bolt_on_points, params.bolt_on_cap, len(bolt))
        total += points
        reasons.append(f"+{points}: module(s) nothing imports: {bolt[:5]}")
    sources = substrate.source_paths()
    if substrate.tier is not None:
        wanted = params.min_source_files.get(substrate.tier, 0)
        if len(sources) < wanted:
            total += params.too_few_files_points
            reasons.append(f"+{params.too_few_files_points}: {len(sources)} source file(s), tier "
                           f"{substrate.tier} expects at least {wanted}")
    lines = {p: substrate.files[p].count("\n") + 1 for p in sources}
    all_lines = sum(lines.values())
    if lines and all_lines >= params.giant_file_min_lines and len(lines) > 1:
        biggest = max(sorted(lines), key=lambda p: lines[p])
        share = lines[biggest] / all_lines
        if share > params.giant_file_share:
            total += params.giant_file_points
            reasons.append(f"+{params.giant_file_points}: {biggest} holds {share:.0%} of the source lines")
    revealing_matchers = compile_terms(params.revealing_test_words)
    revealing = [(p, n) for p, n in _test_names(substrate)
                 if any(m.hits(WordIndex(n)) for m in revealing_matchers)]
    if revealing:
        points = _capped(params.revealing_test_points, params.revealing_test_cap, len(revealing))
        total += points
        reasons.append(f"+{points}: test name(s) that describe a defect: {[n for _, n in revealing[:3]]}")
    if not reasons:
        reasons.append("no staging signal")
    return AxisScore("rig_confidence", min(100, total), tuple(reasons), params.rig_threshold, params.rig_gated)


# ---------------------------------------------------------------- recognisability
Recogniser = Callable[[str, Mapping[str, str]], tuple[float, Sequence[str]]]


def _overlap_scores(candidate: str, references: Iterable[tuple[str, str]], n: int) -> list[tuple[float, str]]:
    return sorted(((ngram_overlap(text, candidate, n), name) for name, text in references), reverse=True)


def recognisability(
    substrate: Substrate,
    references: Sequence[Reference] = (),
    recognisers: Sequence[Recogniser] = (),
    params: IntakeParams = IntakeParams(),
) -> AxisScore:
    candidate = stripped_text(dict(substrate.files))
    refs = [(f"{r.kind} {r.name}", " ".join(code_tokens(r.text, r.language))) for r in references]
    scored = _overlap_scores(candidate, refs, params.recognisability_n)
    score = 0.0
    reasons: list[str] = []
    for value, name in scored[:3]:
        if value > 0:
            reasons.append(f"{value:.0%} of {name}'s name-stripped {params.recognisability_n}-grams occur")
    if scored:
        score = scored[0][0] * 100
    for recogniser in recognisers:
        value, why = recogniser(candidate, substrate.files)
        if not 0 <= value <= 100:
            raise AuditError("recogniser_invalid", f"recogniser returned {value}, outside 0..100", field="recognisers")
        score = max(score, value)
        reasons.extend(why)
    if not reasons:
        reasons.append(f"no overlap with {len(refs)} reference(s)")
    return AxisScore("recognisability", round(score), tuple(reasons), params.recognisability_threshold,
                     params.recognisability_gated)


# ---------------------------------------------------------------- memorisation
@dataclass(frozen=True)
class MemorisationSubject:
    substrate: Substrate
    references: tuple[Reference, ...]


@runtime_checkable
class MemorisationProbe(Protocol):
    """Scores how much a tool-less reader already knows the substrate: 0 (nothing) .. 100."""

    name: str

    def probe(self, subject: MemorisationSubject) -> tuple[float, Sequence[str]]:
        ...


@dataclass(frozen=True)
class NgramMemorisationProbe:
    """Offline default: verbatim token n-gram overlap (names kept) with every reference."""

    n: int = 8
    name: str = "ngram-overlap"

    def probe(self, subject: MemorisationSubject) -> tuple[float, Sequence[str]]:
        candidate = stripped_text(dict(subject.substrate.files), strip_names=False)
        refs = [(f"{r.kind} {r.name}", " ".join(code_tokens(r.text, r.language, strip_names=False)))
                for r in subject.references]
        scored = _overlap_scores(candidate, refs, self.n)
        reasons = [f"{v:.0%} of {name}'s verbatim {self.n}-grams occur" for v, name in scored[:3] if v > 0]
        return (scored[0][0] * 100 if scored else 0.0,
                reasons or [f"no verbatim overlap with {len(refs)} reference(s)"])


@dataclass(frozen=True)
class CompletionMemorisationProbe:
    """Model-backed hook: closed-book, name-only recall of the largest source files.

    ``complete(prompt) -> str`` is any model call the Django layer configures (no
    tools, no retrieval).  The score is the best verbatim n-gram overlap between
    an answer and the real file, in percent.
    """

    complete: Callable[[str], str]
    files: int = 3
    n: int = 8
    name: str = "closed-book-completion"

    def probe(self, subject: MemorisationSubject) -> tuple[float, Sequence[str]]:
        sub = subject.substrate
        sources = sorted(sub.source_paths(), key=lambda p: (-len(sub.files[p]), p))[: self.files]
        best, reasons = 0.0, []
        for path in sources:
            prompt = (f"Without looking anything up, write the complete contents of the file {path} "
                      f"from the project {sub.project_name or 'this project'}.")
            answer = self.complete(prompt)
            value = ngram_overlap(" ".join(code_tokens(sub.files[path], language_of(path) or "python",
                                                       strip_names=False)),
                                  " ".join(code_tokens(answer, language_of(path) or "python", strip_names=False)),
                                  self.n)
            reasons.append(f"recalled {value:.0%} of {path}")
            best = max(best, value)
        return best * 100, reasons or ["no source files to probe"]


def memorisation(
    substrate: Substrate,
    references: Sequence[Reference] = (),
    probe: MemorisationProbe | None = None,
    params: IntakeParams = IntakeParams(),
) -> AxisScore:
    chosen = probe if probe is not None else NgramMemorisationProbe(n=params.memorisation_n)
    value, why = chosen.probe(MemorisationSubject(substrate, tuple(references)))
    if not 0 <= value <= 100:
        raise AuditError("probe_invalid", f"probe {chosen.name} returned {value}, outside 0..100", field="probe")
    return AxisScore("memorisation", round(value), (f"probe {chosen.name}", *why), params.memorisation_threshold,
                     params.memorisation_gated)


def intake_report(
    substrate: Substrate,
    *,
    references: Sequence[Reference] = (),
    recognisers: Sequence[Recogniser] = (),
    probe: MemorisationProbe | None = None,
    params: IntakeParams = IntakeParams(),
) -> IntakeReport:
    """All three axes for ``substrate`` (see the module docstring)."""
    return IntakeReport(
        rig_confidence(substrate, params),
        recognisability(substrate, references, recognisers, params),
        memorisation(substrate, references, probe, params),
    )
