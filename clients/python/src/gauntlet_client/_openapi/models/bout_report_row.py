from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.report_figures import ReportFigures


T = TypeVar("T", bound="BoutReportRow")


@_attrs_define
class BoutReportRow:
    """
    Attributes:
        agent (str):
        competitor (str):
        figures (ReportFigures):
        on_frontier (bool): On the cost–accuracy Pareto frontier of this bout.
        frontier_note (str): Why the agent is not placed on the chart, or empty.
    """

    agent: str
    competitor: str
    figures: ReportFigures
    on_frontier: bool
    frontier_note: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        agent = self.agent

        competitor = self.competitor

        figures = self.figures.to_dict()

        on_frontier = self.on_frontier

        frontier_note = self.frontier_note

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "agent": agent,
                "competitor": competitor,
                "figures": figures,
                "on_frontier": on_frontier,
                "frontier_note": frontier_note,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.report_figures import ReportFigures  # noqa: PLC0415

        d = dict(src_dict)
        agent = d.pop("agent")

        competitor = d.pop("competitor")

        figures = ReportFigures.from_dict(d.pop("figures"))

        on_frontier = d.pop("on_frontier")

        frontier_note = d.pop("frontier_note")

        bout_report_row = cls(
            agent=agent,
            competitor=competitor,
            figures=figures,
            on_frontier=on_frontier,
            frontier_note=frontier_note,
        )

        bout_report_row.additional_properties = d
        return bout_report_row

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
