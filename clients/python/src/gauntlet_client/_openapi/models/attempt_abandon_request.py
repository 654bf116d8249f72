from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="AttemptAbandonRequest")


@_attrs_define
class AttemptAbandonRequest:
    """Request bodies refuse fields they do not know, naming each, instead of ignoring them.

    Attributes:
        reason (str | Unset): Why, in a few words; kept in the audit log.
    """

    reason: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        reason = self.reason

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if reason is not UNSET:
            field_dict["reason"] = reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        reason = d.pop("reason", UNSET)

        attempt_abandon_request = cls(
            reason=reason,
        )

        return attempt_abandon_request
