from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.report_cost import ReportCost
    from ..models.report_figure import ReportFigure
    from ..models.report_latency import ReportLatency
    from ..models.report_pass_at_k import ReportPassAtK


T = TypeVar("T", bound="ReportFigures")


@_attrs_define
class ReportFigures:
    """
    Attributes:
        attempts (int):
        decided_attempts (int):
        pending_attempts (int):
        solved_attempts (int):
        pass_at_1 (float | None): Solved attempts / decided attempts.
        pass_at_k (ReportPassAtK):
        challenges_attempted (int):
        challenges_solved (int):
        invalidated_solves (int): Oracle-passed submissions whose score was invalidated; counted as not solved.
        cost (ReportCost):
        cost_per_solve_usd (ReportFigure):
        solves_per_dollar (ReportFigure):
        cost_per_attempt_usd (ReportFigure):
        latency (ReportLatency):
    """

    attempts: int
    decided_attempts: int
    pending_attempts: int
    solved_attempts: int
    pass_at_1: float | None
    pass_at_k: ReportPassAtK
    challenges_attempted: int
    challenges_solved: int
    invalidated_solves: int
    cost: ReportCost
    cost_per_solve_usd: ReportFigure
    solves_per_dollar: ReportFigure
    cost_per_attempt_usd: ReportFigure
    latency: ReportLatency
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempts = self.attempts

        decided_attempts = self.decided_attempts

        pending_attempts = self.pending_attempts

        solved_attempts = self.solved_attempts

        pass_at_1: float | None
        pass_at_1 = self.pass_at_1

        pass_at_k = self.pass_at_k.to_dict()

        challenges_attempted = self.challenges_attempted

        challenges_solved = self.challenges_solved

        invalidated_solves = self.invalidated_solves

        cost = self.cost.to_dict()

        cost_per_solve_usd = self.cost_per_solve_usd.to_dict()

        solves_per_dollar = self.solves_per_dollar.to_dict()

        cost_per_attempt_usd = self.cost_per_attempt_usd.to_dict()

        latency = self.latency.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempts": attempts,
                "decided_attempts": decided_attempts,
                "pending_attempts": pending_attempts,
                "solved_attempts": solved_attempts,
                "pass_at_1": pass_at_1,
                "pass_at_k": pass_at_k,
                "challenges_attempted": challenges_attempted,
                "challenges_solved": challenges_solved,
                "invalidated_solves": invalidated_solves,
                "cost": cost,
                "cost_per_solve_usd": cost_per_solve_usd,
                "solves_per_dollar": solves_per_dollar,
                "cost_per_attempt_usd": cost_per_attempt_usd,
                "latency": latency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.report_cost import ReportCost  # noqa: PLC0415
        from ..models.report_figure import ReportFigure  # noqa: PLC0415
        from ..models.report_latency import ReportLatency  # noqa: PLC0415
        from ..models.report_pass_at_k import ReportPassAtK  # noqa: PLC0415

        d = dict(src_dict)
        attempts = d.pop("attempts")

        decided_attempts = d.pop("decided_attempts")

        pending_attempts = d.pop("pending_attempts")

        solved_attempts = d.pop("solved_attempts")

        def _parse_pass_at_1(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        pass_at_1 = _parse_pass_at_1(d.pop("pass_at_1"))

        pass_at_k = ReportPassAtK.from_dict(d.pop("pass_at_k"))

        challenges_attempted = d.pop("challenges_attempted")

        challenges_solved = d.pop("challenges_solved")

        invalidated_solves = d.pop("invalidated_solves")

        cost = ReportCost.from_dict(d.pop("cost"))

        cost_per_solve_usd = ReportFigure.from_dict(d.pop("cost_per_solve_usd"))

        solves_per_dollar = ReportFigure.from_dict(d.pop("solves_per_dollar"))

        cost_per_attempt_usd = ReportFigure.from_dict(d.pop("cost_per_attempt_usd"))

        latency = ReportLatency.from_dict(d.pop("latency"))

        report_figures = cls(
            attempts=attempts,
            decided_attempts=decided_attempts,
            pending_attempts=pending_attempts,
            solved_attempts=solved_attempts,
            pass_at_1=pass_at_1,
            pass_at_k=pass_at_k,
            challenges_attempted=challenges_attempted,
            challenges_solved=challenges_solved,
            invalidated_solves=invalidated_solves,
            cost=cost,
            cost_per_solve_usd=cost_per_solve_usd,
            solves_per_dollar=solves_per_dollar,
            cost_per_attempt_usd=cost_per_attempt_usd,
            latency=latency,
        )

        report_figures.additional_properties = d
        return report_figures

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
