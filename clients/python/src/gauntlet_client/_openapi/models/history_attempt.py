from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.submission import Submission


T = TypeVar("T", bound="HistoryAttempt")


@_attrs_define
class HistoryAttempt:
    """
    Attributes:
        id (str):
        bout (str):
        challenge (str):
        number (int):
        state (str):
        started_at (datetime.datetime):
        submissions (list[Submission]):
    """

    id: str
    bout: str
    challenge: str
    number: int
    state: str
    started_at: datetime.datetime
    submissions: list[Submission]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        bout = self.bout

        challenge = self.challenge

        number = self.number

        state = self.state

        started_at = self.started_at.isoformat()

        submissions = []
        for submissions_item_data in self.submissions:
            submissions_item = submissions_item_data.to_dict()
            submissions.append(submissions_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "bout": bout,
                "challenge": challenge,
                "number": number,
                "state": state,
                "started_at": started_at,
                "submissions": submissions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.submission import Submission  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        bout = d.pop("bout")

        challenge = d.pop("challenge")

        number = d.pop("number")

        state = d.pop("state")

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        submissions = []
        _submissions = d.pop("submissions")
        for submissions_item_data in _submissions:
            submissions_item = Submission.from_dict(submissions_item_data)

            submissions.append(submissions_item)

        history_attempt = cls(
            id=id,
            bout=bout,
            challenge=challenge,
            number=number,
            state=state,
            started_at=started_at,
            submissions=submissions,
        )

        history_attempt.additional_properties = d
        return history_attempt

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
