import pytest

from competition.models import Bout, Score, Submission
from tests import factories as f

pytestmark = pytest.mark.django_db
R = Submission.Result


@pytest.fixture
def bout_with_data(agent_with_key):
    """The calling agent pays and solves; another agent reports no cost; one score is invalidated."""
    bout = f.bout(tiers=(1, 2), state=Bout.State.CLOSED, attempts_per_challenge=2)
    c1, c2 = bout.challenges.order_by("position")
    mine = f.entry(bout=bout, agent=agent_with_key.agent)
    f.solve(entry=mine, challenge=c1, seconds=120, points="1", cost_usd="0.50")
    failed = f.attempt(entry=mine, challenge=c2)
    f.submission(attempt=failed, seconds=300, result=R.NOT_SOLVED, cost_usd="0.50")
    other = f.entry(bout=bout, agent=f.agent(name="quiet"))
    f.solve(entry=other, challenge=c2, seconds=30, points="2", state=Score.State.INVALIDATED)
    return bout


def test_leaderboard_shows_states_and_does_not_count_invalidated(agent_client, bout_with_data):
    response = agent_client.get(f"/api/v1/bouts/{bout_with_data.handle}/leaderboard")
    assert response.status_code == 200
    body = response.json()
    assert body["bout"]["handle"] == bout_with_data.handle and body["bout"]["state"] == "closed"
    first, second = body["rows"]
    assert (first["rank"], first["agent"], first["points"], first["solved"]) == (1, "solver", "1.000", 1)
    assert first["states"] == {"provisional": 1, "final": 0, "under_review": 0, "invalidated": 0}
    assert (second["rank"], second["agent"], second["points"]) == (None, "quiet", "0.000")
    assert second["scores"] == [{
        "challenge": bout_with_data.challenges.get(position=2).handle, "challenge_number": 2, "position": 2, "points": "2.000",
        "solve_seconds": 30.0, "state": "invalidated", "counted": False,
    }]


def test_bout_report_discloses_k_and_never_shows_missing_cost_as_free(agent_client, bout_with_data):
    body = agent_client.get(f"/api/v1/bouts/{bout_with_data.handle}/report").json()
    assert body["k"] == 2
    rows = {row["agent"]: row for row in body["agents"]}
    mine = rows["solver"]["figures"]
    assert mine["pass_at_1"] == 0.5
    assert mine["pass_at_k"] == {"k": 2, "value": 0.5, "attempts": 2, "challenges": 2, "challenges_below_k": 2}
    assert mine["cost"]["status"] == "reported" and mine["cost"]["total_usd"] == "1.000000"
    assert mine["cost_per_solve_usd"] == {"value": 1.0, "status": "ok"}
    assert mine["solves_per_dollar"] == {"value": 1.0, "status": "ok"}
    assert mine["latency"]["p50_seconds"] == 120.0 and mine["latency"]["p95_seconds"] == 300.0
    quiet = rows["quiet"]
    assert quiet["figures"]["cost"]["status"] == "not_reported"
    assert quiet["figures"]["cost"]["total_usd"] is None and quiet["figures"]["cost"]["reported_sum_usd"] is None
    assert quiet["figures"]["cost_per_solve_usd"] == {"value": None, "status": "not_reported"}
    assert quiet["on_frontier"] is False and quiet["frontier_note"] == "not_reported"
    assert rows["solver"]["on_frontier"] is True


def test_agent_report_is_the_callers_own(agent_client, bout_with_data):
    body = agent_client.get("/api/v1/reports/agent").json()
    assert body["agent"] == "solver"
    assert [b["bout"] for b in body["bouts"]] == [bout_with_data.handle]
    assert body["bouts"][0]["figures"]["attempts"] == 2
    assert [s["season"] for s in body["seasons"]] == [bout_with_data.season.name]
    assert body["seasons"][0]["k"] == 3


@pytest.mark.parametrize("path", ["leaderboard", "report"])
def test_unknown_and_scheduled_bouts_answer_the_same_404(agent_client, path):
    scheduled = f.bout(state=Bout.State.SCHEDULED)
    missing = agent_client.get(f"/api/v1/bouts/nope/{path}")
    hidden = agent_client.get(f"/api/v1/bouts/{scheduled.handle}/{path}")
    assert missing.status_code == hidden.status_code == 404
    assert missing.json() == hidden.json() == {"code": "not_found", "message": "Not found.", "extra": {}}


@pytest.mark.parametrize("path", ["..%2Fagent/leaderboard", "%2e%2e/report", "a%2Fb/leaderboard"])
def test_path_tricks_are_refused(agent_client, path):
    response = agent_client.get(f"/api/v1/bouts/{path}")
    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


@pytest.mark.parametrize("url", [
    "/api/v1/bouts/x/leaderboard", "/api/v1/bouts/x/report", "/api/v1/seasons/1/report", "/api/v1/reports/agent",
])
def test_reads_require_an_agent_key(api_client, url):
    response = api_client.get(url)
    assert response.status_code in (401, 403)
    assert response.json()["code"] in {"not_authenticated", "permission_denied"}


def test_schema_documents_the_report_operations_with_examples(client):
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()
    ops = {op["operationId"]: op for item in schema["paths"].values() for op in item.values() if isinstance(op, dict)}
    for operation_id in ("bout_leaderboard", "bout_report", "season_report", "agent_report"):
        content = ops[operation_id]["responses"]["200"]["content"]["application/json"]
        assert content["schema"]["$ref"].startswith("#/components/schemas/")
        assert content["examples"]
        assert ops[operation_id]["responses"]["404"]
    assert {"Leaderboard", "BoutReport", "AgentReport", "ReportFigures"} <= set(schema["components"]["schemas"])


def test_season_report_covers_the_seasons_bouts(agent_client, bout_with_data):
    body = agent_client.get(f"/api/v1/seasons/{bout_with_data.season_id}/report").json()
    assert body["season"]["name"] == bout_with_data.season.name and body["k"] == 3
    assert {row["agent"] for row in body["agents"]} == {"solver", "quiet"}
    mine = next(row for row in body["agents"] if row["agent"] == "solver")["figures"]
    assert mine["pass_at_k"]["k"] == 3 and mine["attempts"] == 2


def test_season_without_a_visible_bout_is_404(agent_client):
    scheduled = f.bout(state=Bout.State.SCHEDULED)
    for url in (f"/api/v1/seasons/{scheduled.season_id}/report", "/api/v1/seasons/999999/report"):
        response = agent_client.get(url)
        assert response.status_code == 404 and response.json()["code"] == "not_found"


def test_agent_report_of_an_agent_with_no_bouts(agent_client):
    assert agent_client.get("/api/v1/reports/agent").json() == {"agent": "solver", "bouts": [], "seasons": []}
