from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.component_health import ComponentHealth


T = TypeVar("T", bound="HealthComponents")


@_attrs_define
class HealthComponents:
    """
    Attributes:
        database (ComponentHealth):
        broker (ComponentHealth):
        worker (ComponentHealth):
    """

    database: ComponentHealth
    broker: ComponentHealth
    worker: ComponentHealth
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        database = self.database.to_dict()

        broker = self.broker.to_dict()

        worker = self.worker.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "database": database,
                "broker": broker,
                "worker": worker,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.component_health import ComponentHealth  # noqa: PLC0415

        d = dict(src_dict)
        database = ComponentHealth.from_dict(d.pop("database"))

        broker = ComponentHealth.from_dict(d.pop("broker"))

        worker = ComponentHealth.from_dict(d.pop("worker"))

        health_components = cls(
            database=database,
            broker=broker,
            worker=worker,
        )

        health_components.additional_properties = d
        return health_components

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
