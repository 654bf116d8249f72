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

Known-contamination corpus
    ``parse_jsonl(lines)`` -> ``list[CorpusEntry]`` (all-or-nothing, ``CorpusError``
    lists every bad line), ``dump_jsonl(entries)``, ``load_default_corpus()``.

Rotation (Strategy 3)
    ``RotationPolicy`` (config), ``UsageRecord``, ``RotationTemplate``,
    ``evaluate_rotation(templates, history, lexicons, now, policy)`` ->
    ``TemplateEligibility`` per template; ``plan_quarterly_refresh(...)``,
    ``assess_too_easy(...)``.
"""

from .decision import Decision, Thresholds, Verdict, WindowPolicy, check, select_hall_of_fame
from .errors import (
    ConfigError,
    CorpusError,
    FingerprintError,
    NoveltyError,
    RotationError,
    WindowIndexError,
)
from .fingerprint import Fingerprint
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
    "DEFAULT_WEIGHTS",
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
