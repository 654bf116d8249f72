from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.report_cost_status_enum import ReportCostStatusEnum

T = TypeVar("T", bound="ReportCost")


@_attrs_define
class ReportCost:
    """
    Attributes:
        status (ReportCostStatusEnum): * `reported` - reported
            * `partial` - partial
            * `not_reported` - not_reported
        total_usd (None | str): Null unless every submission reported its cost.
        reported_sum_usd (None | str): Sum of the costs that were reported (a lower bound when partial); null when none
            was.
        reported_submissions (int):
        submissions (int):
        total_tokens (int | None):
        tokens_reported_submissions (int):
    """

    status: ReportCostStatusEnum
    total_usd: None | str
    reported_sum_usd: None | str
    reported_submissions: int
    submissions: int
    total_tokens: int | None
    tokens_reported_submissions: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        total_usd: None | str
        total_usd = self.total_usd

        reported_sum_usd: None | str
        reported_sum_usd = self.reported_sum_usd

        reported_submissions = self.reported_submissions

        submissions = self.submissions

        total_tokens: int | None
        total_tokens = self.total_tokens

        tokens_reported_submissions = self.tokens_reported_submissions

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "status": status,
                "total_usd": total_usd,
                "reported_sum_usd": reported_sum_usd,
                "reported_submissions": reported_submissions,
                "submissions": submissions,
                "total_tokens": total_tokens,
                "tokens_reported_submissions": tokens_reported_submissions,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = ReportCostStatusEnum(d.pop("status"))

        def _parse_total_usd(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        total_usd = _parse_total_usd(d.pop("total_usd"))

        def _parse_reported_sum_usd(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        reported_sum_usd = _parse_reported_sum_usd(d.pop("reported_sum_usd"))

        reported_submissions = d.pop("reported_submissions")

        submissions = d.pop("submissions")

        def _parse_total_tokens(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        total_tokens = _parse_total_tokens(d.pop("total_tokens"))

        tokens_reported_submissions = d.pop("tokens_reported_submissions")

        report_cost = cls(
            status=status,
            total_usd=total_usd,
            reported_sum_usd=reported_sum_usd,
            reported_submissions=reported_submissions,
            submissions=submissions,
            total_tokens=total_tokens,
            tokens_reported_submissions=tokens_reported_submissions,
        )

        report_cost.additional_properties = d
        return report_cost

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
