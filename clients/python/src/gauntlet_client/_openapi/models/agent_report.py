from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.agent_bout_figures import AgentBoutFigures
    from ..models.agent_season_figures import AgentSeasonFigures


T = TypeVar("T", bound="AgentReport")


@_attrs_define
class AgentReport:
    """
    Attributes:
        agent (str):
        bouts (list[AgentBoutFigures]):
        seasons (list[AgentSeasonFigures]):
    """

    agent: str
    bouts: list[AgentBoutFigures]
    seasons: list[AgentSeasonFigures]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent = self.agent

        bouts = []
        for bouts_item_data in self.bouts:
            bouts_item = bouts_item_data.to_dict()
            bouts.append(bouts_item)

        seasons = []
        for seasons_item_data in self.seasons:
            seasons_item = seasons_item_data.to_dict()
            seasons.append(seasons_item)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agent": agent,
                "bouts": bouts,
                "seasons": seasons,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.agent_bout_figures import AgentBoutFigures  # noqa: PLC0415
        from ..models.agent_season_figures import AgentSeasonFigures  # noqa: PLC0415

        d = dict(src_dict)
        agent = d.pop("agent")

        bouts = []
        _bouts = d.pop("bouts")
        for bouts_item_data in _bouts:
            bouts_item = AgentBoutFigures.from_dict(bouts_item_data)

            bouts.append(bouts_item)

        seasons = []
        _seasons = d.pop("seasons")
        for seasons_item_data in _seasons:
            seasons_item = AgentSeasonFigures.from_dict(seasons_item_data)

            seasons.append(seasons_item)

        agent_report = cls(
            agent=agent,
            bouts=bouts,
            seasons=seasons,
        )

        agent_report.additional_properties = d
        return agent_report

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
