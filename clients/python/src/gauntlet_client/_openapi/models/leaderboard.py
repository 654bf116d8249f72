from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.leaderboard_row import LeaderboardRow
    from ..models.report_bout import ReportBout


T = TypeVar("T", bound="Leaderboard")


@_attrs_define
class Leaderboard:
    """
    Attributes:
        bout (ReportBout):
        rows (list[LeaderboardRow]):
    """

    bout: ReportBout
    rows: list[LeaderboardRow]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        bout = self.bout.to_dict()

        rows = []
        for rows_item_data in self.rows:
            rows_item = rows_item_data.to_dict()
            rows.append(rows_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "bout": bout,
                "rows": rows,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.leaderboard_row import LeaderboardRow  # noqa: PLC0415
        from ..models.report_bout import ReportBout  # noqa: PLC0415

        d = dict(src_dict)
        bout = ReportBout.from_dict(d.pop("bout"))

        rows = []
        _rows = d.pop("rows")
        for rows_item_data in _rows:
            rows_item = LeaderboardRow.from_dict(rows_item_data)

            rows.append(rows_item)

        leaderboard = cls(
            bout=bout,
            rows=rows,
        )

        leaderboard.additional_properties = d
        return leaderboard

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
