from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="ReportPassAtK")


@_attrs_define
class ReportPassAtK:
    """
    Attributes:
        k (int):
        value (float | None):
        attempts (int): Decided attempts behind the figure (n).
        challenges (int):
        challenges_below_k (int): Challenges with fewer than k attempts: 1 if solved, else 0 (unused attempts never
            help).
    """

    k: int
    value: float | None
    attempts: int
    challenges: int
    challenges_below_k: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        k = self.k

        value: float | None
        value = self.value

        attempts = self.attempts

        challenges = self.challenges

        challenges_below_k = self.challenges_below_k

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "k": k,
                "value": value,
                "attempts": attempts,
                "challenges": challenges,
                "challenges_below_k": challenges_below_k,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        k = d.pop("k")

        def _parse_value(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        value = _parse_value(d.pop("value"))

        attempts = d.pop("attempts")

        challenges = d.pop("challenges")

        challenges_below_k = d.pop("challenges_below_k")

        report_pass_at_k = cls(
            k=k,
            value=value,
            attempts=attempts,
            challenges=challenges,
            challenges_below_k=challenges_below_k,
        )

        report_pass_at_k.additional_properties = d
        return report_pass_at_k

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
