"""Small helpers shared by tests (import as ``tests.support``)."""

from __future__ import annotations

import json
import time
import urllib.error
import urllib.request
from typing import Any


def wait_for(predicate, *, timeout: float, interval: float = 0.5, what: str = "condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {what}")


def http_json(url: str, *, headers: dict[str, str] | None = None, method: str = "GET", body: Any = None,
              timeout: float = 15) -> tuple[int, dict[str, str], Any]:
    """A real HTTP request as an agent would make it; returns (status, headers, parsed JSON)."""
    data = None
    headers = dict(headers or {})
    if body is not None:
        data = json.dumps(body).encode()
        headers.setdefault("Content-Type", "application/json")
    request = urllib.request.Request(url, data=data, headers=headers, method=method)
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:
            return response.status, dict(response.headers), json.loads(response.read() or b"null")
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), json.loads(error.read() or b"null")
