from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="AttemptStartRequest")


@_attrs_define
class AttemptStartRequest:
    """Request bodies refuse fields they do not know, naming each, instead of ignoring them.

    Attributes:
        again (bool | Unset): Start another attempt although you have solved the challenge (counts toward the limit).
            Default: False.
    """

    again: bool | Unset = False

    def to_dict(self) -> dict[str, Any]:
        again = self.again

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if again is not UNSET:
            field_dict["again"] = again

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        again = d.pop("again", UNSET)

        attempt_start_request = cls(
            again=again,
        )

        return attempt_start_request
