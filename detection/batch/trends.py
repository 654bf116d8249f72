"""Historical trend analysis (spec 003 "Historical Trend Analysis (Monthly)").

* :func:`monthly_scores` – a template's monthly contamination score: the mean of
  the contamination scores (composite scores of its submissions) recorded in
  that calendar month, with the count behind it; a month with fewer than
  ``min_samples`` scores has no score (too little to rise or fall).
* :func:`rising_run` – "templates with 3 consecutive months of rising
  contamination → retire": the run of consecutive calendar months, ending at the
  latest scored month, in which each month's score exceeds the previous month's
  by more than ``min_rise``. ``rising_months`` = 3 rises (four months of scores)
  retire. A month without a score breaks the run: a rise is only counted between
  adjacent calendar months.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import BatchParameterError

Month = tuple[int, int]  # (year, month)


@dataclass(frozen=True)
class TrendParams:
    rising_months: int = 3
    min_rise: float = 0.0
    min_samples: int = 5

    def __post_init__(self) -> None:
        if self.rising_months < 1:
            raise BatchParameterError("rising_months must be at least 1", field="rising_months")
        if self.min_rise < 0:
            raise BatchParameterError("min_rise must not be negative", field="min_rise")
        if self.min_samples < 1:
            raise BatchParameterError("min_samples must be at least 1", field="min_samples")


@dataclass(frozen=True)
class MonthScore:
    month: Month
    score: float | None
    samples: int

    def as_dict(self) -> dict[str, object]:
        return {"month": f"{self.month[0]:04d}-{self.month[1]:02d}",
                "score": None if self.score is None else round(self.score, 4), "samples": self.samples}


@dataclass(frozen=True)
class TrendResult:
    months: tuple[MonthScore, ...]
    rises: int
    retire: bool
    reason: str

    def as_dict(self) -> dict[str, object]:
        return {"months": [m.as_dict() for m in self.months], "rises": self.rises, "retire": self.retire,
                "reason": self.reason}


def next_month(month: Month) -> Month:
    year, number = month
    return (year + 1, 1) if number == 12 else (year, number + 1)


def monthly_scores(samples: Iterable[tuple[Month, float]], params: TrendParams = TrendParams()) -> list[MonthScore]:
    """Mean score per calendar month, every month from the first to the last present."""
    buckets: dict[Month, list[float]] = {}
    for month, value in samples:
        if not 0.0 <= value <= 1.0:
            raise BatchParameterError("contamination scores must be within [0, 1]", field="samples")
        buckets.setdefault(month, []).append(value)
    if not buckets:
        return []
    out: list[MonthScore] = []
    month, last = min(buckets), max(buckets)
    while True:
        values = buckets.get(month, [])
        score = sum(values) / len(values) if len(values) >= params.min_samples else None
        out.append(MonthScore(month, score, len(values)))
        if month == last:
            return out
        month = next_month(month)


def rising_run(months: list[MonthScore], params: TrendParams = TrendParams()) -> TrendResult:
    """The rises ending at the latest scored month, and whether they retire the template."""
    scored = [m for m in months if m.score is not None]
    rises = 0
    if scored:
        index = len(months) - 1
        while months[index].score is None:
            index -= 1
        while index > 0:
            here, before = months[index], months[index - 1]
            if before.score is None or here.score is None or here.score - before.score <= params.min_rise:
                break
            rises += 1
            index -= 1
    retire = rises >= params.rising_months
    chain = " → ".join(f"{m.month[0]:04d}-{m.month[1]:02d} {m.score:.3f}" for m in scored[-(rises + 1):]) if scored else ""
    if retire:
        reason = (f"contamination score rose {rises} consecutive months ({chain}); "
                  f"{params.rising_months} rising months retire a template")
    elif scored:
        reason = f"{rises} consecutive rising month(s) ending {chain or 'now'}; {params.rising_months} retire"
    else:
        reason = f"no month with at least {params.min_samples} scores"
    return TrendResult(tuple(months), rises, retire, reason)
