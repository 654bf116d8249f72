"""Portal pages for bouts: the list, a bout's challenges, rules and leaderboard with its
honest-reporting figures and charts, the same figures over a season, and a competitor's
own agent history and submissions.

Bout pages are public (leaderboards are); an agent's history and its submissions are
its owner's alone, and another competitor's answers the same 404 as one that does not
exist.
"""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import render

from competition.models import Bout
from competition.scoring import ConfigInvalid, get_format
from competition.selectors import (
    GroupReport,
    agent_entries,
    agent_get_for_owner,
    agent_report,
    agent_score_history,
    agent_submission_history,
    bout_challenge_page,
    bout_challenge_rows,
    bout_get_visible,
    bout_leaderboard,
    bout_list_visible,
    bout_progress_for_owner,
    bout_report,
    leaderboard_details_public,
    season_get_visible,
    season_report,
    submission_get_for_owner,
)
from detection.selectors.integrity import integrity_summary, validity_checklist_for

UNPLACED_REASONS = {
    "not_reported": "cost not reported",
    "partial": "cost reported for only some submissions",
    "no_attempts": "no attempts",
    "no_decided_attempts": "no decided attempts yet",
}


def bout_list(request):
    bouts = list(bout_list_visible())
    return render(request, "portal/bouts/list.html", {
        "live": [b for b in bouts if b.state == Bout.State.ACTIVE],
        "halted": [b for b in bouts if b.state == Bout.State.HALTED],
        "past": [b for b in bouts if b.state == Bout.State.CLOSED],
    })


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


def distribution_data(report: GroupReport) -> dict:
    """pass@1 and pass@k (with k and n) and each agent's latencies, for the two charts
    beside the cost–accuracy one. Agents without a decided attempt have no bar or box."""
    return {
        "k": report.k,
        "pass": [
            {"agent": row.agent_name, "competitor": row.competitor, "pass_at_1": row.figures.pass_at_1, "pass_at_k": row.figures.pass_at_k.value,
             "n": row.figures.pass_at_k.attempts, "decided": row.figures.decided_attempts}
            for row in report.rows if row.figures.pass_at_1 is not None
        ],
        "latency": [
            {"agent": row.agent_name, "competitor": row.competitor, "seconds": list(row.figures.latency.values), "p50": row.figures.latency.p50,
             "p95": row.figures.latency.p95}
            for row in report.rows if row.figures.latency.count
        ],
    }


def _report_context(report: GroupReport) -> dict:
    return {"report": report, "chart": chart_data(report), "distribution": distribution_data(report)}


def bout_detail(request, handle):
    bout = bout_get_visible(handle=handle)
    if bout is None:
        raise Http404("No such bout.")
    try:
        format_description = get_format(bout.scoring_format).description
    except ConfigInvalid:
        format_description = ""
    progress = bout_progress_for_owner(bout=bout, owner=request.user)
    report = bout_report(bout=bout)
    integrity = integrity_summary(bout=bout)
    return render(request, "portal/bouts/detail.html", {
        "bout": bout, "board": bout_leaderboard(bout=bout), "details_public": leaderboard_details_public(bout),
        "challenges": bout_challenge_rows(bout=bout), "progress": progress,
        "format_description": format_description, **_report_context(report),
        "integrity": integrity,
        "validity": validity_checklist_for(report=report, bout=bout, summary=integrity),
    })


@login_required
def challenge_detail(request, handle, challenge):
    """A challenge of a bout and its task statement, as the agents receive it (competitors only:
    the statement is handed to agents, not published to crawlers)."""
    bout = bout_get_visible(handle=handle)
    page = bout_challenge_page(bout=bout, handle=challenge) if bout is not None else None
    if page is None:
        raise Http404("No such challenge.")
    return render(request, "portal/bouts/challenge.html", {"bout": bout, "page": page, "challenge": page.row})


def season_detail(request, pk):
    season = season_get_visible(pk=pk)
    if season is None:
        raise Http404("No such season.")
    bouts = list(bout_list_visible().filter(season=season))
    report = season_report(season=season)
    integrity = integrity_summary(season=season)
    return render(request, "portal/bouts/season.html", {
        "season": season, "bouts": bouts, **_report_context(report),
        "integrity": integrity,
        "validity": validity_checklist_for(report=report, season=season, summary=integrity),
    })


@login_required
def agent_history(request, public_id):
    agent = agent_get_for_owner(owner=request.user, public_id=public_id)
    if agent is None:
        raise Http404("No such agent.")
    entries = agent_entries(agent=agent)
    disqualified = {e.bout_id: e for e in entries if e.disqualified_at is not None}
    report = agent_report(agent=agent)
    return render(request, "portal/bouts/agent_history.html", {
        "agent": agent,
        "report": report,
        "entries": entries,
        "bout_rows": [(item, disqualified.get(item.scope.pk)) for item in report.bouts],
        "scores": agent_score_history(agent=agent),
        "submissions": agent_submission_history(agent=agent),
    })


@login_required
def submission_detail(request, handle):
    submission = submission_get_for_owner(owner=request.user, handle=handle)
    if submission is None:
        raise Http404("No such submission.")
    return render(request, "portal/bouts/submission.html", {
        "submission": submission, "entry": submission.attempt.entry, "bout": submission.attempt.challenge.bout,
        "challenge": submission.attempt.challenge,
    })
