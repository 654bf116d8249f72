from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.bout_report_row import BoutReportRow
    from ..models.report_season import ReportSeason


T = TypeVar("T", bound="SeasonReport")


@_attrs_define
class SeasonReport:
    """
    Attributes:
        season (ReportSeason):
        k (int):
        agents (list[BoutReportRow]):
    """

    season: ReportSeason
    k: int
    agents: list[BoutReportRow]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        season = self.season.to_dict()

        k = self.k

        agents = []
        for agents_item_data in self.agents:
            agents_item = agents_item_data.to_dict()
            agents.append(agents_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "season": season,
                "k": k,
                "agents": agents,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.bout_report_row import BoutReportRow  # noqa: PLC0415
        from ..models.report_season import ReportSeason  # noqa: PLC0415

        d = dict(src_dict)
        season = ReportSeason.from_dict(d.pop("season"))

        k = d.pop("k")

        agents = []
        _agents = d.pop("agents")
        for agents_item_data in _agents:
            agents_item = BoutReportRow.from_dict(agents_item_data)

            agents.append(agents_item)

        season_report = cls(
            season=season,
            k=k,
            agents=agents,
        )

        season_report.additional_properties = d
        return season_report

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
