from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TestCounts")


@_attrs_define
class TestCounts:
    """
    Attributes:
        passed (int | None):
        failed (int | None):
    """

    passed: int | None
    failed: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        passed: int | None
        passed = self.passed

        failed: int | None
        failed = self.failed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "passed": passed,
                "failed": failed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_passed(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        passed = _parse_passed(d.pop("passed"))

        def _parse_failed(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        failed = _parse_failed(d.pop("failed"))

        test_counts = cls(
            passed=passed,
            failed=failed,
        )

        test_counts.additional_properties = d
        return test_counts

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
