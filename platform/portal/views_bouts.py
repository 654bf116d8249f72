"""Portal pages for bouts: the list, a bout's leaderboard and honest-reporting figures
with its cost–accuracy chart, the same figures over a season, and a competitor's own
agent history.

Bout pages are public (leaderboards are); an agent's history is its owner's alone, and
another competitor's agent answers the same 404 as one that does not exist.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render

from competition.models import Bout
from competition.scoring import ConfigInvalid, get_format
from competition.selectors import (
    GroupReport,
    agent_get_for_owner,
    agent_report,
    agent_score_history,
    agent_submission_history,
    bout_get_visible,
    bout_leaderboard,
    bout_list_visible,
    bout_report,
    season_get_visible,
    season_report,
)

UNPLACED_REASONS = {
    "not_reported": "cost not reported",
    "partial": "cost reported for only some submissions",
    "no_attempts": "no attempts",
    "no_decided_attempts": "no decided attempts yet",
}


def bout_list(request):
    bouts = list(bout_list_visible())
    live = [b for b in bouts if b.state in (Bout.State.ACTIVE, Bout.State.HALTED)]
    past = [b for b in bouts if b.state == Bout.State.CLOSED]
    return render(request, "portal/bouts/list.html", {"live": live, "past": past})


def chart_data(report: GroupReport) -> dict:
    """The cost–accuracy chart as plain JSON for the page's script (``json_script``)."""
    names = {row.agent_id: row.agent_name for row in report.rows}
    return {
        "points": [
            {"agent": names[p.key], "cost": p.cost, "accuracy": p.accuracy,
             "frontier": p.key in report.frontier.frontier_keys}
            for p in report.frontier.points
        ],
        "frontier": [{"agent": names[p.key], "cost": p.cost, "accuracy": p.accuracy} for p in report.frontier.frontier],
        "unplaced": [
            {"agent": names[key], "reason": UNPLACED_REASONS.get(reason, reason)}
            for key, reason in sorted(report.frontier.unplaced.items(), key=lambda item: names[item[0]])
        ],
    }


def bout_detail(request, handle):
    bout = bout_get_visible(handle=handle)
    if bout is None:
        raise Http404("No such bout.")
    board = bout_leaderboard(bout=bout)
    report = bout_report(bout=bout)
    try:
        format_description = get_format(bout.scoring_format).description
    except ConfigInvalid:
        format_description = ""
    own_agents = []
    if request.user.is_authenticated:
        mine = set(request.user.agents.values_list("public_id", flat=True))
        own_agents = [row for row in board if row.agent_public_id in mine]
    return render(request, "portal/bouts/detail.html", {
        "bout": bout, "board": board, "report": report, "chart": chart_data(report),
        "format_description": format_description, "own_agents": own_agents,
    })


def season_detail(request, pk):
    season = season_get_visible(pk=pk)
    if season is None:
        raise Http404("No such season.")
    report = season_report(season=season)
    bouts = list(bout_list_visible().filter(season=season))
    return render(request, "portal/bouts/season.html", {
        "season": season, "bouts": bouts, "report": report, "chart": chart_data(report),
    })


@login_required
def agent_history(request, public_id):
    agent = agent_get_for_owner(owner=request.user, public_id=public_id)
    if agent is None:
        raise Http404("No such agent.")
    return render(request, "portal/bouts/agent_history.html", {
        "agent": agent,
        "report": agent_report(agent=agent),
        "scores": agent_score_history(agent=agent),
        "submissions": agent_submission_history(agent=agent),
    })
