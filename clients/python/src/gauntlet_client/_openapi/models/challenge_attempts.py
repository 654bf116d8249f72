from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.attempt import Attempt


T = TypeVar("T", bound="ChallengeAttempts")


@_attrs_define
class ChallengeAttempts:
    """
    Attributes:
        challenge (str):
        attempts_per_challenge (int):
        attempts_left (int):
        solved (bool): True once one of your attempts solved the challenge.
        open_ (Attempt | None): Your open attempt, or null when none.
        attempts (list[Attempt]): Every attempt you made on this challenge, oldest first.
    """

    challenge: str
    attempts_per_challenge: int
    attempts_left: int
    solved: bool
    open_: Attempt | None
    attempts: list[Attempt]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.attempt import Attempt  # noqa: PLC0415

        challenge = self.challenge

        attempts_per_challenge = self.attempts_per_challenge

        attempts_left = self.attempts_left

        solved = self.solved

        open_: dict[str, Any] | None
        if isinstance(self.open_, Attempt):
            open_ = self.open_.to_dict()
        else:
            open_ = self.open_

        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "challenge": challenge,
                "attempts_per_challenge": attempts_per_challenge,
                "attempts_left": attempts_left,
                "solved": solved,
                "open": open_,
                "attempts": attempts,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attempt import Attempt  # noqa: PLC0415

        d = dict(src_dict)
        challenge = d.pop("challenge")

        attempts_per_challenge = d.pop("attempts_per_challenge")

        attempts_left = d.pop("attempts_left")

        solved = d.pop("solved")

        def _parse_open_(data: object) -> Attempt | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                open_type_1 = Attempt.from_dict(data)

                return open_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(Attempt | None, data)

        open_ = _parse_open_(d.pop("open"))

        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = Attempt.from_dict(attempts_item_data)

            attempts.append(attempts_item)

        challenge_attempts = cls(
            challenge=challenge,
            attempts_per_challenge=attempts_per_challenge,
            attempts_left=attempts_left,
            solved=solved,
            open_=open_,
            attempts=attempts,
        )

        challenge_attempts.additional_properties = d
        return challenge_attempts

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
