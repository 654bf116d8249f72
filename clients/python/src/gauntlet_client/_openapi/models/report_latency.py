from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReportLatency")


@_attrs_define
class ReportLatency:
    """
    Attributes:
        method (str):
        count (int):
        p50_seconds (float | None):
        p95_seconds (float | None):
    """

    method: str
    count: int
    p50_seconds: float | None
    p95_seconds: float | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        method = self.method

        count = self.count

        p50_seconds: float | None
        p50_seconds = self.p50_seconds

        p95_seconds: float | None
        p95_seconds = self.p95_seconds

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "method": method,
                "count": count,
                "p50_seconds": p50_seconds,
                "p95_seconds": p95_seconds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        method = d.pop("method")

        count = d.pop("count")

        def _parse_p50_seconds(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        p50_seconds = _parse_p50_seconds(d.pop("p50_seconds"))

        def _parse_p95_seconds(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        p95_seconds = _parse_p95_seconds(d.pop("p95_seconds"))

        report_latency = cls(
            method=method,
            count=count,
            p50_seconds=p50_seconds,
            p95_seconds=p95_seconds,
        )

        report_latency.additional_properties = d
        return report_latency

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
