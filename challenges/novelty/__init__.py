"""Novelty core (spec 003, Strategies 2 and 3): pure Python, no Django.

Public interface (import from here; submodules are implementation detail):

Fingerprints and similarity
    ``Fingerprint`` - frozen, normalised, exactly the spec's nine fields;
    ``Fingerprint.from_dict(data)`` / ``.to_dict()``; bad input raises
    ``FingerprintError`` (``code``, ``message``, ``extra["field"]``).
    ``Weights`` (spec weights; ``bug_location`` 0 by default), ``compare(a, b, weights)``
    -> ``(score, per-field contributions)``, ``similarity(a, b, weights)``.
    ``Match`` (key, score, per-field ``FieldContribution``s, source, ``explain()``).

Dedup decision
    ``check(candidate, window, hall_of_fame, corpus, *, weights, thresholds, k)``
    -> ``Decision`` (verdict, reasons, nearest matches, uniqueness).
    ``Thresholds``, ``Verdict``, ``WindowPolicy``, ``select_hall_of_fame(solves, size)``.
    Comparison sets: ``FingerprintIndex`` (fast, incremental, for the 90-day window)
    or ``ReferenceSet`` / any iterable of ``(key, Fingerprint)``.

Window index (numpy; rebuilt from the database at worker start, then incremental)
    ``FingerprintIndex()``; ``.add(key: int, fp, at: aware datetime)``,
    ``.add_many(iterable of (key, fp, at))`` (all or nothing), ``.remove(key)``,
    ``.expire(before)`` (drops entries created before, e.g. ``now - 90 days``),
    ``.compact()``, ``.nearest(candidate, k, weights) -> list[Match]`` (bit-identical
    to the reference), ``.fingerprint(key)``, ``.keys()``, ``len()``.

Code-level dedup (identifier-erased structure; see ``code.py``)
    ``code_signature(files) -> CodeSignature`` (non-test source only; ``to_dict``/``from_dict``),
    ``CodeIndex`` (MinHash + LSH banding, exact Jaccard/containment on candidates):
    ``.add(key, sig, at)``, ``.remove``, ``.expire``, ``.nearest(sig, k, exclude=) -> list[CodeMatch]``;
    ``compare(a, b)``, ``shared_regions(candidate, earlier) -> list[SharedRegion]``;
    ``code_check(sig, window, hall_of_fame, thresholds=CodeThresholds(), enforcement=Enforcement)``
    -> ``CodeDecision`` (verdict by the thresholds, effective verdict by the enforcement mode).

Errors
    Every error is a ``NoveltyError`` with ``code``, ``message``, ``extra`` and
    ``as_dict()`` in the project's ``{"code", "message", "extra"}`` shape.

Known-contamination corpus
    ``parse_jsonl(lines)`` -> ``list[CorpusEntry]`` (all-or-nothing, ``CorpusError``
    lists every bad line in ``extra["errors"]``), ``dump_jsonl(entries)`` -> str,
    ``load_corpus(path=DEFAULT_CORPUS_PATH)`` (the shipped
    ``challenges/data/contamination_corpus.jsonl``), ``corpus_set(entries)`` -> a
    comparison set for ``check``; ``CATEGORIES``.

Rotation (Strategy 3)
    ``RotationPolicy`` (config), ``UsageRecord``, ``RotationTemplate``,
    ``evaluate_rotation(templates, history, lexicons, now, policy)`` ->
    ``TemplateEligibility`` per template (eligible, weight, blocks with reasons,
    next_eligible_at + binding_rule, allowed_domains, allowed_stacks);
    ``choose_weighted(options, rng)``.
    ``plan_quarterly_refresh(active_stats, drafts, RefreshPolicy)`` -> ``RefreshPlan``;
    ``assess_too_easy(records, now, TooEasyPolicy)`` -> ``BugClassDecision`` list;
    ``health_score(stats, policy)``.
"""

from .code import CodeIndex, CodeMatch, CodeSignature, SharedRegion, code_signature, shared_regions
from .code import compare as code_compare
from .code_decision import CodeDecision, CodeThresholds, Enforcement, code_check
from .corpus import CATEGORIES, DEFAULT_CORPUS_PATH, CorpusEntry, corpus_set, dump_jsonl, load_corpus, parse_jsonl
from .decision import Decision, Thresholds, Verdict, WindowPolicy, check, select_hall_of_fame
from .errors import (
    CodeSignatureError,
    ConfigError,
    CorpusError,
    FingerprintError,
    NoveltyError,
    RotationError,
    WindowIndexError,
)
from .fingerprint import Fingerprint
from .index import FingerprintIndex
from .refresh import (
    BugClassDecision,
    BugClassRecord,
    DraftTemplate,
    MonthlySolves,
    RefreshDecision,
    RefreshPlan,
    RefreshPolicy,
    TemplateStats,
    TooEasyPolicy,
    assess_too_easy,
    health_score,
    plan_quarterly_refresh,
)
from .rotation import (
    Block,
    RotationPolicy,
    RotationTemplate,
    TemplateEligibility,
    UsageRecord,
    choose_weighted,
    evaluate_rotation,
)
from .similarity import (
    DEFAULT_WEIGHTS,
    FieldContribution,
    Match,
    ReferenceSet,
    Weights,
    compare,
    similarity,
)

__all__ = [
    "CodeDecision",
    "CodeIndex",
    "CodeThresholds",
    "Enforcement",
    "code_check",
    "CodeMatch",
    "CodeSignature",
    "CodeSignatureError",
    "SharedRegion",
    "code_compare",
    "code_signature",
    "shared_regions",
    "CATEGORIES",
    "DEFAULT_CORPUS_PATH",
    "CorpusEntry",
    "corpus_set",
    "dump_jsonl",
    "load_corpus",
    "parse_jsonl",
    "DEFAULT_WEIGHTS",
    "Block",
    "BugClassDecision",
    "BugClassRecord",
    "DraftTemplate",
    "FingerprintIndex",
    "MonthlySolves",
    "RefreshDecision",
    "RefreshPlan",
    "RefreshPolicy",
    "RotationPolicy",
    "RotationTemplate",
    "TemplateEligibility",
    "TemplateStats",
    "TooEasyPolicy",
    "UsageRecord",
    "assess_too_easy",
    "choose_weighted",
    "evaluate_rotation",
    "health_score",
    "plan_quarterly_refresh",
    "ConfigError",
    "CorpusError",
    "Decision",
    "FieldContribution",
    "Fingerprint",
    "FingerprintError",
    "Match",
    "NoveltyError",
    "ReferenceSet",
    "RotationError",
    "Thresholds",
    "Verdict",
    "Weights",
    "WindowIndexError",
    "WindowPolicy",
    "check",
    "compare",
    "select_hall_of_fame",
    "similarity",
]
