from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.leaderboard_score import LeaderboardScore
    from ..models.score_state_counts import ScoreStateCounts


T = TypeVar("T", bound="LeaderboardRow")


@_attrs_define
class LeaderboardRow:
    """
    Attributes:
        rank (int | None): The agent's standing in the bout, 1 = best, ordered by the bout's scoring format (by default
            points, then lower total solve time). Agents equal on those keys share a rank and the next rank skips (1, 1, 3).
            Null when nothing of this agent counts (no solve yet, every score invalidated, or disqualified).
        agent (str):
        competitor (str):
        points (str):
        solved (int):
        total_solve_seconds (float | None): Server time summed over the counted solves. Null while the bout runs, unless
            staff made its per-challenge times public: a live board shows points, solves and rank only.
        states (ScoreStateCounts):
        disqualified (bool):
        scores (list[LeaderboardScore]): Every score with its challenge, time and state; empty while the bout runs,
            unless staff made its per-challenge times public (which challenge an agent solved, and when, is what a copier
            wants).
    """

    rank: int | None
    agent: str
    competitor: str
    points: str
    solved: int
    total_solve_seconds: float | None
    states: ScoreStateCounts
    disqualified: bool
    scores: list[LeaderboardScore]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        rank: int | None
        rank = self.rank

        agent = self.agent

        competitor = self.competitor

        points = self.points

        solved = self.solved

        total_solve_seconds: float | None
        total_solve_seconds = self.total_solve_seconds

        states = self.states.to_dict()

        disqualified = self.disqualified

        scores = []
        for scores_item_data in self.scores:
            scores_item = scores_item_data.to_dict()
            scores.append(scores_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "rank": rank,
                "agent": agent,
                "competitor": competitor,
                "points": points,
                "solved": solved,
                "total_solve_seconds": total_solve_seconds,
                "states": states,
                "disqualified": disqualified,
                "scores": scores,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.leaderboard_score import LeaderboardScore  # noqa: PLC0415
        from ..models.score_state_counts import ScoreStateCounts  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_rank(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rank = _parse_rank(d.pop("rank"))

        agent = d.pop("agent")

        competitor = d.pop("competitor")

        points = d.pop("points")

        solved = d.pop("solved")

        def _parse_total_solve_seconds(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        total_solve_seconds = _parse_total_solve_seconds(d.pop("total_solve_seconds"))

        states = ScoreStateCounts.from_dict(d.pop("states"))

        disqualified = d.pop("disqualified")

        scores = []
        _scores = d.pop("scores")
        for scores_item_data in _scores:
            scores_item = LeaderboardScore.from_dict(scores_item_data)

            scores.append(scores_item)

        leaderboard_row = cls(
            rank=rank,
            agent=agent,
            competitor=competitor,
            points=points,
            solved=solved,
            total_solve_seconds=total_solve_seconds,
            states=states,
            disqualified=disqualified,
            scores=scores,
        )

        leaderboard_row.additional_properties = d
        return leaderboard_row

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
