from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.report_figures import ReportFigures


T = TypeVar("T", bound="AgentSeasonFigures")


@_attrs_define
class AgentSeasonFigures:
    """
    Attributes:
        season (str):
        k (int):
        figures (ReportFigures):
    """

    season: str
    k: int
    figures: ReportFigures
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        season = self.season

        k = self.k

        figures = self.figures.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "season": season,
                "k": k,
                "figures": figures,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.report_figures import ReportFigures  # noqa: PLC0415

        d = dict(src_dict)
        season = d.pop("season")

        k = d.pop("k")

        figures = ReportFigures.from_dict(d.pop("figures"))

        agent_season_figures = cls(
            season=season,
            k=k,
            figures=figures,
        )

        agent_season_figures.additional_properties = d
        return agent_season_figures

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
