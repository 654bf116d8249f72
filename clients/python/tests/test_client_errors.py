"""Error answers and retries of the client facade.

The happy path runs against a live platform (tests/e2e); these cover answers a healthy
test server does not give on demand (throttling, a proxy's HTML page), through httpx's
own transport hook.
"""

import httpx
import pytest

from gauntlet_client import ApiError, GauntletClient, TransportError

BOUTS = [{"id": "bout-1", "name": "b", "state": "active", "starts_at": "2026-11-30T09:00:00Z",
          "ends_at": "2026-11-30T13:00:00Z", "attempts_per_challenge": 3, "submissions_per_attempt": 10,
          "challenges": []}]


def client_for(handler, sleeps):
    return GauntletClient("http://platform.test", "gk_k", sleep=sleeps.append,
                          httpx_client=httpx.Client(base_url="http://platform.test",
                                                    transport=httpx.MockTransport(handler)))


def test_throttled_calls_wait_as_told_and_retry():
    answers = iter([httpx.Response(429, headers={"Retry-After": "7"},
                                   json={"code": "throttled", "message": "slow down", "extra": {}}),
                    httpx.Response(200, json=BOUTS)])
    sleeps: list[float] = []
    bouts = client_for(lambda request: next(answers), sleeps).bouts()
    assert [b.id for b in bouts] == ["bout-1"] and sleeps == [7.0]


def test_api_errors_carry_code_message_and_extra():
    def handler(request):
        return httpx.Response(409, json={"code": "attempt_limit_reached", "message": "All 3 used.",
                                         "extra": {"limit": 3}})

    with pytest.raises(ApiError) as info:
        client_for(handler, []).start("ch-1")
    assert (info.value.status, info.value.code, info.value.message, info.value.extra) == (
        409, "attempt_limit_reached", "All 3 used.", {"limit": 3})


def test_an_answer_outside_the_description_still_reports_its_code():
    def handler(request):
        return httpx.Response(413, json={"code": "request_too_large", "message": "Too big.", "extra": {}})

    with pytest.raises(ApiError) as info:
        client_for(handler, []).submit("att-1", "--- a/x\n+++ b/x\n")
    assert (info.value.status, info.value.code) == (413, "request_too_large")


def test_a_non_api_answer_is_reported_plainly():
    def handler(request):
        return httpx.Response(404, text="<html>nginx</html>")

    with pytest.raises(ApiError) as info:
        client_for(handler, []).me()
    assert info.value.code == "unreadable_response" and "not the Gauntlet API" in info.value.message


def test_submissions_retry_under_the_same_idempotency_key():
    seen: list[str] = []

    def handler(request):
        seen.append(request.headers["Idempotency-Key"])
        if len(seen) == 1:
            raise httpx.ConnectError("reset")
        return httpx.Response(202, headers={"Location": "http://platform.test/api/v1/submissions/sub-1"}, json={
            "id": "sub-1", "attempt": "att-1", "state": "queued", "result": "pending", "reason": "",
            "tests": {"passed": None, "failed": None}, "received_at": "2026-11-30T10:00:00Z", "evaluated_at": None})

    submitted = client_for(handler, []).submit("att-1", "patch")
    assert len(seen) == 2 and seen[0] == seen[1] == submitted.idempotency_key
    assert submitted.created and submitted.location.endswith("/submissions/sub-1")


def test_an_unreachable_platform_is_a_transport_error():
    client = GauntletClient("http://127.0.0.1:9", "gk_k", retries=1, sleep=lambda s: None, timeout=2)
    with pytest.raises(TransportError, match="Could not reach"):
        client.bouts()
