"""Request limits: every oversized, overdeep or out-of-range submission is a 4xx with a stable
code, is refused before it costs memory, and leaves no row behind."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

from competition.models import Submission
from competition.services.bouts import bout_create
from core.models import AuditEvent
from tests import instance_factory as f

pytestmark = pytest.mark.django_db
URL = "/api/v1/attempts/{}/submissions"


@pytest.fixture
def attempt_url(agent_client):
    now = timezone.now()
    bout = bout_create(name="Limits", instances=[f.make_instance()], starts_at=now - timedelta(minutes=1),
                       ends_at=now + timedelta(hours=1), by=None)
    response = agent_client.post(f"/api/v1/challenges/{bout.challenges.get().handle}/attempts")
    assert response.status_code == 201
    return URL.format(response.json()["id"])


class CountingStream:
    """A request body that records how much of it the server read."""

    def __init__(self, size: int):
        self.size, self.read_bytes = size, 0

    def read(self, n: int = -1) -> bytes:
        n = self.size - self.read_bytes if n is None or n < 0 else min(n, self.size - self.read_bytes)
        self.read_bytes += n
        return b" " * n

    def readline(self, *args) -> bytes:
        return self.read(*args)


def _post_raw(client, url, body: bytes | str, **headers):
    data = body.encode() if isinstance(body, str) else body
    return client.generic("POST", url, data, content_type="application/json", HTTP_IDEMPOTENCY_KEY="k", **headers)


def _refused(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:300]
    body = response.json()
    assert set(body) == {"code", "message", "extra"} and body["code"] == code, body
    assert not Submission.objects.exists()
    return body


def test_a_50_mb_body_is_refused_before_a_byte_is_read(agent_client, attempt_url):
    events = AuditEvent.objects.count()
    stream = CountingStream(50 * 1024 * 1024)
    response = agent_client.generic("POST", attempt_url, b"", content_type="application/json",
                                    HTTP_IDEMPOTENCY_KEY="k", CONTENT_LENGTH=str(stream.size),
                                    **{"wsgi.input": stream})
    body = _refused(response, 413, "request_too_large")
    assert body["extra"] == {"limit_bytes": 2 * 1024 * 1024}
    assert stream.read_bytes == 0
    assert AuditEvent.objects.count() == events


def test_a_chunked_body_without_length_is_refused(agent_client, attempt_url):
    response = agent_client.generic("POST", attempt_url, b"", content_type="application/json",
                                    HTTP_IDEMPOTENCY_KEY="k", CONTENT_LENGTH="", HTTP_TRANSFER_ENCODING="chunked")
    _refused(response, 411, "length_required")


def test_the_parser_stops_reading_at_the_cap_whatever_the_headers_said(settings):
    import io

    from api.exceptions import RequestTooLarge
    from api.parsers import BoundedJSONParser

    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 64
    stream = io.BytesIO(b"[" + b"1," * 10_000 + b"1]")
    with pytest.raises(RequestTooLarge):
        BoundedJSONParser().parse(stream)
    assert stream.tell() == 65


@pytest.mark.parametrize("depth, code", [(100_000, "json_too_deep"), (65, "json_too_deep"), (40, "trace_too_deep")])
def test_deep_traces_are_refused_without_recursion(agent_client, attempt_url, depth, code):
    body = f'{{"patch": {json.dumps(f.GOLD_PATCH)}, "trace": {"[" * depth}1{"]" * depth}}}'
    _refused(_post_raw(agent_client, attempt_url, body), 400, code)


def test_huge_trace_is_refused(agent_client, attempt_url):
    trace = [{"step": i, "text": "x" * 1000} for i in range(600)]  # about 620 KB, under the body cap
    body = _refused(_post_raw(agent_client, attempt_url, json.dumps({"patch": f.GOLD_PATCH, "trace": trace})), 400,
                    "trace_too_large")
    assert body["extra"] == {"field": "trace"}


@pytest.mark.parametrize("trace", ["a string", 42, {"k": "nul\u0000"}])
def test_trace_of_the_wrong_kind_is_refused(agent_client, attempt_url, trace):
    _refused(_post_raw(agent_client, attempt_url, json.dumps({"patch": f.GOLD_PATCH, "trace": trace})), 400,
             "trace_invalid")


def test_a_bounded_trace_is_stored_as_json(agent_client, attempt_url):
    trace = {"steps": [{"tool": "edit", "args": {"path": "rooms/ledger.py"}}], "model": "m"}
    response = _post_raw(agent_client, attempt_url, json.dumps({"patch": f.GOLD_PATCH, "trace": trace}))
    assert response.status_code == 202, response.content
    assert Submission.objects.get().trace == trace


@pytest.mark.parametrize("field, value, field_code", [
    ("tokens", 2**70, "max_value"),
    ("tokens", -1, "min_value"),
    ("tokens", "12", "invalid"),  # the schema says integer: a numeric string is not one
    ("tokens", 1.5, "invalid"),
    ("tokens", True, "invalid"),
    ("cost_usd", "NaN", "invalid"),
    ("cost_usd", "Infinity", "invalid"),
    ("cost_usd", "-0.01", "invalid"),
    ("cost_usd", "1e20", "invalid"),
    ("cost_usd", "0.1234567", "invalid"),
    ("cost_usd", 1e20, "invalid"),
    ("cost_usd", -0.5, "invalid"),
    ("claimed_elapsed_seconds", "inf", "invalid"),
    ("claimed_elapsed_seconds", "nan", "invalid"),
    ("claimed_elapsed_seconds", "12.5", "invalid"),
    ("claimed_elapsed_seconds", -1, "min_value"),
    ("claimed_elapsed_seconds", 1e12, "max_value"),
    ("patch", 12345, "invalid"),
])
def test_numbers_out_of_range_are_refused_with_field_codes(agent_client, attempt_url, field, value, field_code):
    body = _refused(_post_raw(agent_client, attempt_url, json.dumps({"patch": f.GOLD_PATCH, field: value})), 400,
                    "invalid")
    assert body["extra"]["field_codes"] == {field: [field_code]}


@pytest.mark.parametrize("literal", ["NaN", "Infinity", "-Infinity", "1e400", "-1e999"])
def test_non_finite_json_numbers_are_refused_by_the_parser(agent_client, attempt_url, literal):
    body = f'{{"patch": {json.dumps(f.GOLD_PATCH)}, "claimed_elapsed_seconds": {literal}}}'
    _refused(_post_raw(agent_client, attempt_url, body), 400, "json_number_not_finite")


def test_non_finite_number_inside_a_trace_is_refused(agent_client, attempt_url):
    body = f'{{"patch": {json.dumps(f.GOLD_PATCH)}, "trace": {{"t": 1e999}}}}'
    _refused(_post_raw(agent_client, attempt_url, body), 400, "json_number_not_finite")


def test_lone_surrogate_is_refused(agent_client, attempt_url):
    body = '{"patch": "\\ud800", "trace": null}'
    _refused(_post_raw(agent_client, attempt_url, body), 400, "json_invalid_unicode")


def test_values_in_range_are_accepted_and_stored(agent_client, attempt_url):
    payload = {"patch": f.GOLD_PATCH, "tokens": 10**12, "cost_usd": "999999.999999", "claimed_elapsed_seconds": 0}
    response = _post_raw(agent_client, attempt_url, json.dumps(payload))
    assert response.status_code == 202, response.content
    stored = Submission.objects.get()
    assert (stored.tokens, str(stored.cost_usd), stored.claimed_elapsed_seconds) == (10**12, "999999.999999", 0)


def test_a_cost_given_as_a_number_is_rounded_to_the_column(agent_client, attempt_url):
    payload = {"patch": f.GOLD_PATCH, "tokens": 3.0, "cost_usd": 0.12345678}
    response = _post_raw(agent_client, attempt_url, json.dumps(payload))
    assert response.status_code == 202, response.content
    stored = Submission.objects.get()
    assert (stored.tokens, str(stored.cost_usd)) == (3, "0.123457")
