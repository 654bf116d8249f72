from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

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
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        again = self.again

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
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

        attempt_start_request.additional_properties = d
        return attempt_start_request

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
