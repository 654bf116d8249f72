"""Solve rates: the per-attempt rate (pass@1) and pass@k with the unbiased estimator.

``pass_at_k(n, c, k) = 1 - C(n - c, k) / C(n, k)`` is the probability that at least one of
``k`` attempts drawn without replacement from ``n`` recorded attempts (``c`` of them solved)
is a solve (Chen et al. 2021). It is unbiased for ``n >= k`` and undefined below that.

Reporting pass@k alone hides how many attempts bought it (spec 001 §3), so the aggregate
``PassAtK`` always carries ``k``, the attempts ``n`` behind it and how many challenges had
fewer than ``k`` attempts.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

from competition.reporting.errors import ReportingInputError, require_count


def solve_rate(solved: int, attempts: int) -> float | None:
    """``solved / attempts``; None when there were no attempts (a rate of nothing is no rate)."""
    require_count("solved", solved)
    require_count("attempts", attempts)
    if solved > attempts:
        raise ReportingInputError("solved", f"{solved} solves exceed {attempts} attempts")
    return solved / attempts if attempts else None


def pass_at_k(n: int, c: int, k: int) -> float:
    """Unbiased pass@k for one challenge with ``n`` attempts of which ``c`` solved.

    Exact integer binomials, one correctly rounded division: no float drift for large n.
    """
    require_count("n", n)
    require_count("c", c)
    require_count("k", k)
    if k < 1:
        raise ReportingInputError("k", "must be at least 1")
    if c > n:
        raise ReportingInputError("c", f"{c} solves exceed {n} attempts")
    if n < k:
        raise ReportingInputError("n", f"pass@{k} needs at least {k} attempts, got {n}")
    return 1.0 - math.comb(n - c, k) / math.comb(n, k)


@dataclass(frozen=True)
class PassAtK:
    """pass@k over challenges, with what it rests on disclosed.

    ``value`` is the mean over challenges; None when no challenge was attempted.
    ``challenges_below_k`` counts challenges with fewer than ``k`` attempts, scored by the
    rule in ``pass_at_k_over_challenges``.
    """

    k: int
    value: float | None
    attempts: int
    challenges: int
    challenges_below_k: int


def pass_at_k_over_challenges(outcomes: Iterable[tuple[int, int]], k: int) -> PassAtK:
    """Mean pass@k over ``(n, c)`` pairs, one per attempted challenge.

    Challenges with ``n >= k`` use the unbiased estimator. On this platform an agent stops
    after its first solve (only that one scores) and may simply not use all its attempts, so
    ``n < k`` is common and is scored, not dropped (dropping it would keep exactly the hard
    challenges and flatter nobody honestly):

    * ``c > 0``: 1.0, the challenge was solved within fewer than ``k`` attempts;
    * ``c == 0``: 0.0, unused attempts are not evidence of skill, and abstaining must not
      lift the figure (spec 001 §3, "targeted submission").

    Challenges with ``n == 0`` carry no information and are skipped.
    """
    require_count("k", k)
    if k < 1:
        raise ReportingInputError("k", "must be at least 1")
    values: list[float] = []
    attempts = 0
    below = 0
    for n, c in outcomes:
        require_count("n", n)
        require_count("c", c)
        if c > n:
            raise ReportingInputError("c", f"{c} solves exceed {n} attempts")
        if n == 0:
            continue
        attempts += n
        if n >= k:
            values.append(pass_at_k(n, c, k))
        else:
            below += 1
            values.append(1.0 if c else 0.0)
    # fsum: the mean must not depend on the order challenges arrive in.
    value = math.fsum(values) / len(values) if values else None
    return PassAtK(k=k, value=value, attempts=attempts, challenges=len(values), challenges_below_k=below)
