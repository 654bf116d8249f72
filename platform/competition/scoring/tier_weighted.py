"""The default format: tier-weighted points, ranked by points then total solve time."""

from __future__ import annotations

import math
from collections import defaultdict
from decimal import Decimal
from typing import Any

from competition.scoring.base import ChallengeFacts, ConfigInvalid, ScoreRow, ScoringFormat, Standing, register

DEFAULT_TIER_POINTS = {"1": 1, "2": 2, "3": 3, "4": 5, "5": 8}


@register("tier_weighted")
class TierWeighted(ScoringFormat):
    description = (
        "Each solved challenge earns the points of its tier (default 1, 2, 3, 5, 8 for tiers 1-5). "
        "Agents rank by total points, then by lower total server-measured solve time "
        "(attempt start to the solving submission's arrival); equal on both share a rank."
    )

    def validate_config(self, config: dict[str, Any]) -> dict[str, Any]:
        unknown = set(config) - {"tier_points"}
        if unknown:
            raise ConfigInvalid(sorted(unknown)[0], "unknown option")
        tier_points = config.get("tier_points", DEFAULT_TIER_POINTS)
        if not isinstance(tier_points, dict) or set(map(str, tier_points)) != set(DEFAULT_TIER_POINTS):
            raise ConfigInvalid("tier_points", "must map each tier 1-5 to its points")
        cleaned = {}
        for tier, value in tier_points.items():
            if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
                raise ConfigInvalid("tier_points", f"points for tier {tier} must be a non-negative number")
            cleaned[str(tier)] = value
        return {"tier_points": cleaned}

    def points(self, challenge: ChallengeFacts, config: dict[str, Any]) -> Decimal:
        table = self.validate_config(config)["tier_points"]
        return Decimal(str(table[str(challenge.tier)]))

    def rank(self, rows: list[ScoreRow], config: dict[str, Any]) -> list[Standing]:
        points: dict[int, Decimal] = defaultdict(Decimal)
        times: dict[int, list[float]] = defaultdict(list)
        solved: dict[int, int] = defaultdict(int)
        states: dict[int, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        for row in rows:
            points[row.agent_id] += row.points
            times[row.agent_id].append(row.solve_seconds)
            solved[row.agent_id] += 1
            states[row.agent_id][row.state] += 1
        # fsum: the total must not depend on the order rows arrive in.
        seconds = {agent: round(math.fsum(values), 3) for agent, values in times.items()}
        order = sorted(points, key=lambda a: (-points[a], seconds[a], a))
        standings: list[Standing] = []
        previous_key = None
        for position, agent in enumerate(order, start=1):
            key = (points[agent], seconds[agent])
            rank = standings[-1].rank if key == previous_key else position
            previous_key = key
            standings.append(
                Standing(rank, agent, points[agent], solved[agent], seconds[agent], dict(states[agent]))
            )
        return standings
