"""Display filters for honest-reporting figures.

A figure without a value always says why ("not reported", "no solves", ...): a blank or a
zero in its place would read as "free" or "instant", which is exactly what honest
reporting must not suggest.
"""

from __future__ import annotations

from django import template

from competition.reporting import CostStatus, CostSummary, Figure, FigureStatus
from core import formatting

register = template.Library()

STATUS_LABELS = {
    FigureStatus.NOT_REPORTED: "not reported",
    FigureStatus.PARTIAL: "incomplete cost",
    FigureStatus.NO_SOLVES: "no solves",
    FigureStatus.ZERO_COST: "reported $0",
    FigureStatus.NO_ATTEMPTS: "no attempts",
}


def _usd(value: float) -> str:
    return formatting.money(value)


@register.filter
def figure_usd(figure: Figure) -> str:
    if figure.value is None:
        return STATUS_LABELS.get(figure.status, "—")
    return _usd(figure.value)


@register.filter
def figure_number(figure: Figure) -> str:
    if figure.value is None:
        return STATUS_LABELS.get(figure.status, "—")
    return f"{figure.value:,.2f}"


@register.filter
def percent(value: float | None) -> str:
    return formatting.percent(value)


@register.filter
def seconds(value: float | None) -> str:
    """Seconds as ``42.0 s``, ``3 m 05 s`` or ``2 h 04 m``."""
    return formatting.duration(value)


@register.filter
def cost_total(cost: CostSummary) -> str:
    if cost.status is CostStatus.NOT_REPORTED:
        return "not reported"
    if cost.status is CostStatus.PARTIAL:
        return f"incomplete: {_usd(float(cost.total_usd))} from {cost.reported} of {cost.submissions} submissions"
    return _usd(float(cost.total_usd))


@register.filter
def state_label(state: str) -> str:
    return state.replace("_", " ")
