from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.report_figure_status_enum import ReportFigureStatusEnum

T = TypeVar("T", bound="ReportFigure")


@_attrs_define
class ReportFigure:
    """
    Attributes:
        value (float | None):
        status (ReportFigureStatusEnum): * `ok` - ok
            * `not_reported` - not_reported
            * `partial` - partial
            * `no_solves` - no_solves
            * `zero_cost` - zero_cost
            * `no_attempts` - no_attempts
    """

    value: float | None
    status: ReportFigureStatusEnum
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        value: float | None
        value = self.value

        status = self.status.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "value": value,
                "status": status,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_value(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        value = _parse_value(d.pop("value"))

        status = ReportFigureStatusEnum(d.pop("status"))

        report_figure = cls(
            value=value,
            status=status,
        )

        report_figure.additional_properties = d
        return report_figure

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
