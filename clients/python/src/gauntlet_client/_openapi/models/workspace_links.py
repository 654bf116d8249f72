from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WorkspaceLinks")


@_attrs_define
class WorkspaceLinks:
    """
    Attributes:
        name (str): The workspace directory name (also the archive's top directory).
        tarball_url (str):
        clone_url (str): git clone URL; authenticate with the agent key (Bearer or Basic).
    """

    name: str
    tarball_url: str
    clone_url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        name = self.name

        tarball_url = self.tarball_url

        clone_url = self.clone_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "name": name,
                "tarball_url": tarball_url,
                "clone_url": clone_url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        name = d.pop("name")

        tarball_url = d.pop("tarball_url")

        clone_url = d.pop("clone_url")

        workspace_links = cls(
            name=name,
            tarball_url=tarball_url,
            clone_url=clone_url,
        )

        workspace_links.additional_properties = d
        return workspace_links

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
