from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.health_status_enum import HealthStatusEnum

if TYPE_CHECKING:
    from ..models.health_components import HealthComponents


T = TypeVar("T", bound="Health")


@_attrs_define
class Health:
    """
    Attributes:
        status (HealthStatusEnum): * `ok` - ok
            * `degraded` - degraded
        checked_at (datetime.datetime):
        components (HealthComponents):
    """

    status: HealthStatusEnum
    checked_at: datetime.datetime
    components: HealthComponents
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        checked_at = self.checked_at.isoformat()

        components = self.components.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "checked_at": checked_at,
                "components": components,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.health_components import HealthComponents  # noqa: PLC0415

        d = dict(src_dict)
        status = HealthStatusEnum(d.pop("status"))

        checked_at = datetime.datetime.fromisoformat(d.pop("checked_at"))

        components = HealthComponents.from_dict(d.pop("components"))

        health = cls(
            status=status,
            checked_at=checked_at,
            components=components,
        )

        health.additional_properties = d
        return health

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
