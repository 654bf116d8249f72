from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.component_health_extra import ComponentHealthExtra


T = TypeVar("T", bound="ComponentHealth")


@_attrs_define
class ComponentHealth:
    """
    Attributes:
        ok (bool):
        detail (str):
        extra (ComponentHealthExtra):
    """

    ok: bool
    detail: str
    extra: ComponentHealthExtra
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        ok = self.ok

        detail = self.detail

        extra = self.extra.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "ok": ok,
                "detail": detail,
                "extra": extra,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.component_health_extra import (
            ComponentHealthExtra,  # noqa: PLC0415
        )

        d = dict(src_dict)
        ok = d.pop("ok")

        detail = d.pop("detail")

        extra = ComponentHealthExtra.from_dict(d.pop("extra"))

        component_health = cls(
            ok=ok,
            detail=detail,
            extra=extra,
        )

        component_health.additional_properties = d
        return component_health

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
