"""Temporal clustering of one challenge's solves (spec 003 "Post-Bout Detection", item 3).

"If most solutions arrive in a narrow time window (suggesting agents all
recognised the problem simultaneously), flag it." Narrow is judged against the
bout's own arrival pattern, not a hand-picked cut-off:

* **statistic** – the scan statistic *W*: the width of the shortest time window
  holding ``m = max(min_cluster, ⌈share × n⌉)`` of the challenge's ``n`` solves
  (``share`` = 0.5: "most");
* **null hypothesis** – the challenge's solve times are ``n`` arrivals drawn at
  random, without replacement, from the bout's arrival pattern (``pool``: the
  solve times of every challenge of the bout, this one included), i.e. nothing
  about *this* challenge made its solves arrive together;
* **test** – a Monte-Carlo permutation test with ``permutations`` draws from a
  seeded ``numpy`` generator (the same inputs and seed give the same p-value);
  ``p = (1 + #{W* ≤ W}) / (1 + permutations)`` (never 0); the challenge is
  flagged when ``p < alpha``.

A bout where every agent arrives at once makes every challenge's window narrow,
and then no challenge is unusual: the pool carries that. With fewer than
``min_solves`` solves, or a pool no larger than the challenge's own solves (no
other arrivals to compare with), the result is ``insufficient``.

That null is confounded by difficulty: an easy challenge is solved sooner after the
agents start, so its solves bunch early against a pool holding harder ones.
:func:`temporal_cluster_given_starts` (the batch's default) removes both confounders
by conditioning on what each solver brought: each solve is ``start + duration`` (the
attempt's server start and its time to solve); the null keeps every solver's start and
permutes the challenge's own durations among its solvers. A window narrower than
those re-pairings give means solvers who started at different times finished
together, the signature of a shared moment of recognition (a leak published at one
time), while neither late starts nor an easy challenge can produce it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .errors import BatchParameterError


@dataclass(frozen=True)
class ClusterParams:
    share: float = 0.5
    min_cluster: int = 2
    min_solves: int = 3
    permutations: int = 2000
    alpha: float = 0.01

    def __post_init__(self) -> None:
        if not 0.0 < self.share <= 1.0:
            raise BatchParameterError("share must be within (0, 1]", field="share")
        if self.min_cluster < 2:
            raise BatchParameterError("min_cluster must be at least 2", field="min_cluster")
        if self.min_solves < 2:
            raise BatchParameterError("min_solves must be at least 2", field="min_solves")
        if self.permutations < 1:
            raise BatchParameterError("permutations must be at least 1", field="permutations")
        if not 0.0 < self.alpha < 1.0:
            raise BatchParameterError("alpha must be within (0, 1)", field="alpha")


@dataclass(frozen=True)
class ClusterResult:
    solves: int
    pool: int
    cluster_size: int
    window_seconds: float | None
    window: tuple[float, float] | None  # seconds since the bout started
    null_median_seconds: float | None
    p_value: float | None
    flagged: bool
    level: str  # "flag" | "none" | "insufficient"
    value: float  # 1 − p, 0 when insufficient
    permutations: int
    seed: int
    reason: str

    def as_dict(self) -> dict[str, object]:
        return {"solves": self.solves, "pool": self.pool, "cluster_size": self.cluster_size,
                "window_seconds": None if self.window_seconds is None else round(self.window_seconds, 3),
                "window": None if self.window is None else [round(x, 3) for x in self.window],
                "null_median_seconds": None if self.null_median_seconds is None else round(self.null_median_seconds, 3),
                "p_value": self.p_value, "flagged": self.flagged, "level": self.level, "value": round(self.value, 4),
                "permutations": self.permutations, "seed": self.seed, "reason": self.reason}


def cluster_size(n: int, params: ClusterParams) -> int:
    return min(n, max(params.min_cluster, math.ceil(params.share * n)))


def shortest_window(times: Sequence[float], m: int) -> tuple[float, float]:
    """The shortest ``[start, end]`` holding ``m`` of ``times`` (the first such, by start)."""
    ordered = sorted(times)
    if not 1 <= m <= len(ordered):
        raise BatchParameterError("m must be within [1, len(times)]", field="m")
    widths = [ordered[i + m - 1] - ordered[i] for i in range(len(ordered) - m + 1)]
    best = min(range(len(widths)), key=lambda i: (widths[i], i))
    return ordered[best], ordered[best + m - 1]


def _null_widths(pool: np.ndarray, n: int, m: int, permutations: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    out = np.empty(permutations)
    chunk = max(1, 2_000_000 // max(1, len(pool)))
    for start in range(0, permutations, chunk):
        rows = min(chunk, permutations - start)
        picks = np.argsort(rng.random((rows, len(pool))), axis=1)[:, :n]
        drawn = np.sort(pool[picks], axis=1)
        out[start:start + rows] = (drawn[:, m - 1:] - drawn[:, : n - m + 1]).min(axis=1)
    return out


def _null_widths_given_starts(starts: np.ndarray, durations: np.ndarray, m: int, permutations: int,
                              seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    n = len(starts)
    out = np.empty(permutations)
    chunk = max(1, 2_000_000 // max(1, n))
    for first in range(0, permutations, chunk):
        rows = min(chunk, permutations - first)
        order = np.argsort(rng.random((rows, n)), axis=1)
        arrivals = np.sort(starts[None, :] + durations[order], axis=1)
        out[first:first + rows] = (arrivals[:, m - 1:] - arrivals[:, : n - m + 1]).min(axis=1)
    return out


def temporal_cluster_given_starts(starts: Sequence[float], durations: Sequence[float], *, seed: int,
                                  params: ClusterParams = ClusterParams()) -> ClusterResult:
    """Test whether this challenge's solves (``start + duration`` each, seconds since the
    bout started) arrive more bunched than re-pairing its solvers' starts with its own
    solve durations gives (see the module docstring)."""
    if len(starts) != len(durations):
        raise BatchParameterError("every solve needs its start and its duration", field="durations")
    n = len(starts)
    times = [s + d for s, d in zip(starts, durations, strict=True)]
    m = cluster_size(n, params) if n else 0
    if n < params.min_solves:
        return ClusterResult(n, n, m, None, None, None, None, False, "insufficient", 0.0, params.permutations, seed,
                             f"not tested: {n} solve(s), fewer than {params.min_solves}")
    start, end = shortest_window(times, m)
    observed = end - start
    widths = _null_widths_given_starts(np.asarray(starts, dtype=float), np.asarray(durations, dtype=float), m,
                                       params.permutations, seed)
    as_narrow = int(np.count_nonzero(widths <= observed + 1e-9))
    p_value = (1 + as_narrow) / (1 + params.permutations)
    median = float(np.median(widths))
    flagged = p_value < params.alpha
    reason = (f"{m} of {n} solves arrived within {observed:.1f} s; with each solver's start kept and the "
              f"challenge's solve durations re-paired at random, {m} arrivals span {median:.1f} s at the median; "
              f"permutation p = {p_value:.4g} over {params.permutations} draws "
              f"({'below' if flagged else 'not below'} alpha {params.alpha:g})")
    return ClusterResult(n, n, m, observed, (start, end), median, p_value, flagged, "flag" if flagged else "none",
                         1.0 - p_value, params.permutations, seed, reason)


def temporal_cluster(times: Sequence[float], pool: Sequence[float], *, seed: int,
                     params: ClusterParams = ClusterParams()) -> ClusterResult:
    """Test whether ``times`` (this challenge's solves, seconds since the bout started)
    are bunched relative to ``pool`` (every solve of the bout, these included)."""
    n, size = len(times), len(pool)
    if size < n:
        raise BatchParameterError("the pool must include the challenge's own solve times", field="pool")
    m = cluster_size(n, params) if n else 0
    if n < params.min_solves or size <= n:
        why = (f"{n} solve(s), fewer than {params.min_solves}" if n < params.min_solves
               else "no other arrivals in the bout to compare with")
        return ClusterResult(n, size, m, None, None, None, None, False, "insufficient", 0.0, params.permutations,
                             seed, f"not tested: {why}")
    start, end = shortest_window(times, m)
    observed = end - start
    widths = _null_widths(np.asarray(pool, dtype=float), n, m, params.permutations, seed)
    # A tolerance, so a width equal to the observed one up to float error counts as "as narrow".
    as_narrow = int(np.count_nonzero(widths <= observed + 1e-9))
    p_value = (1 + as_narrow) / (1 + params.permutations)
    median = float(np.median(widths))
    flagged = p_value < params.alpha
    reason = (f"{m} of {n} solves arrived within {observed:.1f} s; {m} random arrivals of this bout span "
              f"{median:.1f} s at the median; permutation p = {p_value:.4g} over {params.permutations} draws "
              f"({'below' if flagged else 'not below'} alpha {params.alpha:g})")
    return ClusterResult(n, size, m, observed, (start, end), median, p_value, flagged,
                         "flag" if flagged else "none", 1.0 - p_value, params.permutations, seed, reason)
