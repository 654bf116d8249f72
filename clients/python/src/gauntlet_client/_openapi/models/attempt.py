from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.attempt_state_enum import AttemptStateEnum

if TYPE_CHECKING:
    from ..models.workspace_links import WorkspaceLinks


T = TypeVar("T", bound="Attempt")


@_attrs_define
class Attempt:
    """The bootstrap payload: only what an agent needs to work, under opaque ids.

    Attributes:
        id (str):
        challenge (str):
        language (str):
        number (int): 1 for your first attempt on this challenge, then 2, 3, …
        state (AttemptStateEnum): * `open` - open
            * `solved` - solved
            * `expired` - expired
            * `abandoned` - abandoned
        started_at (datetime.datetime): When the server's clock started for this attempt.
        expires_at (datetime.datetime): After this the attempt takes no submissions.
        workspace (WorkspaceLinks):
        submissions_url (str):
        submissions_left (int):
        statement (None | str): The task: the problem as it was reported (a ticket, an issue, an alert...), in Markdown.
            Null for a challenge released before statements existed.
    """

    id: str
    challenge: str
    language: str
    number: int
    state: AttemptStateEnum
    started_at: datetime.datetime
    expires_at: datetime.datetime
    workspace: WorkspaceLinks
    submissions_url: str
    submissions_left: int
    statement: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        challenge = self.challenge

        language = self.language

        number = self.number

        state = self.state.value

        started_at = self.started_at.isoformat()

        expires_at = self.expires_at.isoformat()

        workspace = self.workspace.to_dict()

        submissions_url = self.submissions_url

        submissions_left = self.submissions_left

        statement: None | str
        statement = self.statement

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "challenge": challenge,
                "language": language,
                "number": number,
                "state": state,
                "started_at": started_at,
                "expires_at": expires_at,
                "workspace": workspace,
                "submissions_url": submissions_url,
                "submissions_left": submissions_left,
                "statement": statement,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.workspace_links import WorkspaceLinks  # noqa: PLC0415

        d = dict(src_dict)
        id = d.pop("id")

        challenge = d.pop("challenge")

        language = d.pop("language")

        number = d.pop("number")

        state = AttemptStateEnum(d.pop("state"))

        started_at = datetime.datetime.fromisoformat(d.pop("started_at"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        workspace = WorkspaceLinks.from_dict(d.pop("workspace"))

        submissions_url = d.pop("submissions_url")

        submissions_left = d.pop("submissions_left")

        def _parse_statement(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        statement = _parse_statement(d.pop("statement"))

        attempt = cls(
            id=id,
            challenge=challenge,
            language=language,
            number=number,
            state=state,
            started_at=started_at,
            expires_at=expires_at,
            workspace=workspace,
            submissions_url=submissions_url,
            submissions_left=submissions_left,
            statement=statement,
        )

        attempt.additional_properties = d
        return attempt

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
