from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.bout_challenge import BoutChallenge


T = TypeVar("T", bound="Bout")


@_attrs_define
class Bout:
    """
    Attributes:
        id (str):
        name (str):
        state (str):
        starts_at (datetime.datetime):
        ends_at (datetime.datetime):
        attempts_per_challenge (int):
        submissions_per_attempt (int):
        challenges (list[BoutChallenge]):
    """

    id: str
    name: str
    state: str
    starts_at: datetime.datetime
    ends_at: datetime.datetime
    attempts_per_challenge: int
    submissions_per_attempt: int
    challenges: list[BoutChallenge]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        name = self.name

        state = self.state

        starts_at = self.starts_at.isoformat()

        ends_at = self.ends_at.isoformat()

        attempts_per_challenge = self.attempts_per_challenge

        submissions_per_attempt = self.submissions_per_attempt

        challenges = []
        for challenges_item_data in self.challenges:
            challenges_item = challenges_item_data.to_dict()
            challenges.append(challenges_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "name": name,
                "state": state,
                "starts_at": starts_at,
                "ends_at": ends_at,
                "attempts_per_challenge": attempts_per_challenge,
                "submissions_per_attempt": submissions_per_attempt,
                "challenges": challenges,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bout_challenge import BoutChallenge  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        name = d.pop("name")

        state = d.pop("state")

        starts_at = datetime.datetime.fromisoformat(d.pop("starts_at"))

        ends_at = datetime.datetime.fromisoformat(d.pop("ends_at"))

        attempts_per_challenge = d.pop("attempts_per_challenge")

        submissions_per_attempt = d.pop("submissions_per_attempt")

        challenges = []
        _challenges = d.pop("challenges")
        for challenges_item_data in _challenges:
            challenges_item = BoutChallenge.from_dict(challenges_item_data)

            challenges.append(challenges_item)

        bout = cls(
            id=id,
            name=name,
            state=state,
            starts_at=starts_at,
            ends_at=ends_at,
            attempts_per_challenge=attempts_per_challenge,
            submissions_per_attempt=submissions_per_attempt,
            challenges=challenges,
        )

        bout.additional_properties = d
        return bout

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
