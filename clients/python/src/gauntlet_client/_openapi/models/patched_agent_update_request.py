from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchedAgentUpdateRequest")


@_attrs_define
class PatchedAgentUpdateRequest:
    """Request bodies refuse fields they do not know, naming each, instead of ignoring them.

    Attributes:
        description (str | Unset):
        model_name (str | Unset):
    """

    description: str | Unset = UNSET
    model_name: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        description = self.description

        model_name = self.model_name

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if description is not UNSET:
            field_dict["description"] = description
        if model_name is not UNSET:
            field_dict["model_name"] = model_name

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        description = d.pop("description", UNSET)

        model_name = d.pop("model_name", UNSET)

        patched_agent_update_request = cls(
            description=description,
            model_name=model_name,
        )

        return patched_agent_update_request
