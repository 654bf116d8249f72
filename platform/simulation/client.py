"""A minimal agent-side HTTP client for the REST API (what a real agent would send)."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class ApiResponse:
    status: int
    body: Any
    raw: bytes


class AgentClient:
    def __init__(self, base_url: str, key: str, *, timeout: float = 30):
        self.base_url = base_url.rstrip("/")
        self.key = key
        self.timeout = timeout

    def _request(self, method: str, path: str, *, body: Any = None, headers: dict[str, str] | None = None) -> ApiResponse:
        url = path if path.startswith("http") else f"{self.base_url}{path}"
        data = json.dumps(body).encode() if body is not None else None
        merged = {"Authorization": f"Bearer {self.key}", **(headers or {})}
        if data is not None:
            merged["Content-Type"] = "application/json"
        request = urllib.request.Request(url, data=data, headers=merged, method=method)
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                raw = response.read()
                status = response.status
        except urllib.error.HTTPError as error:
            raw, status = error.read(), error.code
        content = None
        if raw:
            try:
                content = json.loads(raw)
            except (ValueError, UnicodeDecodeError):
                content = None
        return ApiResponse(status, content, raw)

    def bouts(self) -> ApiResponse:
        return self._request("GET", "/api/v1/bouts")

    def start_attempt(self, challenge: str) -> ApiResponse:
        # Simulated policies (retry gamers, pass@k probes) start attempts after a solve on
        # purpose, which API 1.1 asks them to say.
        return self._request("POST", f"/api/v1/challenges/{challenge}/attempts", body={"again": True})

    def workspace(self, attempt: dict) -> ApiResponse:
        return self._request("GET", attempt["workspace"]["tarball_url"])

    def submit(self, attempt: dict, patch: str, *, key: str, **metadata: Any) -> ApiResponse:
        return self._request("POST", attempt["submissions_url"], body={"patch": patch, **metadata},
                             headers={"Idempotency-Key": key})

    def submission(self, handle: str) -> ApiResponse:
        return self._request("GET", f"/api/v1/submissions/{handle}")
