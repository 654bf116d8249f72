"""Copy pairs across a bout: two competitors whose solving patches agree more often than
independent solvers would (spec 003 strategy 4 at the agent level).

On a simple challenge most independent solvers write the same one-line fix, so one close
pair proves nothing; agreeing closely on *several* challenges where few pairs agree does.
For every challenge ``c`` the chance that two solvers of it land closer than
``distance`` is estimated from the bout itself: ``f_c`` = share of its pairs closer than
``distance``. For a pair of agents who both solved challenges ``S`` and were close on
``m`` of them, the p-value is the probability of at least ``m`` close challenges among
``S`` if each were close independently with probability ``f_c`` (a Poisson-binomial
tail, computed exactly). The pair is a copy pair when ``m ≥ min_challenges`` and the
p-value is below ``alpha``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from .errors import BatchParameterError


@dataclass(frozen=True)
class CopyParams:
    distance: float = 0.05
    min_challenges: int = 2
    alpha: float = 0.01
    # How closeness was decided, for the reason: "distance" (below ``distance``) or
    # "verbatim" (the caller passes distance 0 for the same added text, 1 otherwise).
    measure: str = "distance"

    def __post_init__(self) -> None:
        if not 0.0 <= self.distance <= 1.0:
            raise BatchParameterError("distance must be within [0, 1]", field="distance")
        if self.min_challenges < 1:
            raise BatchParameterError("min_challenges must be at least 1", field="min_challenges")
        if not 0.0 < self.alpha < 1.0:
            raise BatchParameterError("alpha must be within (0, 1)", field="alpha")


@dataclass(frozen=True)
class PairRecord:
    """One pair of solving patches of one challenge: the two agents, their distance."""

    challenge: str
    agent_a: int
    agent_b: int
    distance: float
    cross_owner: bool = True


@dataclass(frozen=True)
class CopyPair:
    agents: tuple[int, int]
    shared: tuple[str, ...]
    close: tuple[str, ...]
    chances: dict[str, float]
    p_value: float
    copy: bool
    reason: str

    def as_dict(self) -> dict[str, object]:
        return {"agents": list(self.agents), "shared": list(self.shared), "close": list(self.close),
                "chances": {k: round(v, 4) for k, v in self.chances.items()},
                "p_value": float(f"{self.p_value:.6g}"), "copy": self.copy, "reason": self.reason}


def poisson_binomial_tail(probabilities: Iterable[float], at_least: int) -> float:
    """P(at least ``at_least`` successes) of independent trials with these probabilities."""
    dist = [1.0]
    for p in probabilities:
        nxt = [0.0] * (len(dist) + 1)
        for k, mass in enumerate(dist):
            nxt[k] += mass * (1 - p)
            nxt[k + 1] += mass * p
        dist = nxt
    return min(1.0, sum(dist[at_least:])) if at_least < len(dist) else 0.0


def closeness_chances(pairs: Iterable[PairRecord], params: CopyParams) -> dict[str, float]:
    totals: dict[str, list[int]] = {}
    for pair in pairs:
        counts = totals.setdefault(pair.challenge, [0, 0])
        counts[0] += 1
        counts[1] += pair.distance < params.distance
    return {c: close / total for c, (total, close) in totals.items() if total}


def copy_pairs(pairs: Iterable[PairRecord], params: CopyParams = CopyParams()) -> list[CopyPair]:
    """Every cross-owner pair of agents close on at least ``min_challenges`` challenges,
    with its p-value; ``copy`` is set on those below ``alpha``. Most suspicious first."""
    pairs = list(pairs)
    chances = closeness_chances(pairs, params)
    by_agents: dict[tuple[int, int], list[PairRecord]] = {}
    for pair in pairs:
        if pair.cross_owner:
            by_agents.setdefault(tuple(sorted((pair.agent_a, pair.agent_b))), []).append(pair)
    out: list[CopyPair] = []
    for agents, records in by_agents.items():
        close = sorted(r.challenge for r in records if r.distance < params.distance)
        if len(close) < params.min_challenges:
            continue
        shared = sorted(r.challenge for r in records)
        used = {c: chances[c] for c in shared}
        p_value = poisson_binomial_tail(used.values(), len(close))
        is_copy = p_value < params.alpha
        how = ("wrote the same added text" if params.measure == "verbatim"
               else f"are closer than {params.distance:g}")
        reason = (f"agents {agents[0]} and {agents[1]} {how} on {len(close)} of the "
                  f"{len(shared)} challenges both solved, where "
                  + ", ".join(f"{c}: {used[c]:.0%}" for c in shared)
                  + f" of solver pairs are; chance of that for independent solvers p = {p_value:.3g}"
                  + (f" (below {params.alpha:g}: copy pair)" if is_copy else f" (not below {params.alpha:g})"))
        out.append(CopyPair(agents, tuple(shared), tuple(close), used, p_value, is_copy, reason))
    out.sort(key=lambda c: (c.p_value, c.agents))
    return out
