from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.leaderboard_score_state_enum import LeaderboardScoreStateEnum

T = TypeVar("T", bound="LeaderboardScore")


@_attrs_define
class LeaderboardScore:
    """
    Attributes:
        challenge (str): The challenge's opaque id.
        challenge_number (int): The challenge's 1-based place in the bout's challenge list (as `GET /bouts` orders it).
            Not a rank: the agent's standing is the row's `rank`.
        position (int): Deprecated since API 1.1: the same value as `challenge_number` (the challenge's place in the
            bout, not a rank). Kept until API 2.0; read `challenge_number` instead.
        points (str):
        solve_seconds (float): Server time from attempt start to the solving submission.
        state (LeaderboardScoreStateEnum): * `provisional` - provisional
            * `final` - final
            * `under_review` - under_review
            * `invalidated` - invalidated
        counted (bool): False for invalidated scores and disqualified agents.
    """

    challenge: str
    challenge_number: int
    position: int
    points: str
    solve_seconds: float
    state: LeaderboardScoreStateEnum
    counted: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        challenge = self.challenge

        challenge_number = self.challenge_number

        position = self.position

        points = self.points

        solve_seconds = self.solve_seconds

        state = self.state.value

        counted = self.counted

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "challenge": challenge,
                "challenge_number": challenge_number,
                "position": position,
                "points": points,
                "solve_seconds": solve_seconds,
                "state": state,
                "counted": counted,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        challenge = d.pop("challenge")

        challenge_number = d.pop("challenge_number")

        position = d.pop("position")

        points = d.pop("points")

        solve_seconds = d.pop("solve_seconds")

        state = LeaderboardScoreStateEnum(d.pop("state"))

        counted = d.pop("counted")

        leaderboard_score = cls(
            challenge=challenge,
            challenge_number=challenge_number,
            position=position,
            points=points,
            solve_seconds=solve_seconds,
            state=state,
            counted=counted,
        )

        leaderboard_score.additional_properties = d
        return leaderboard_score

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
