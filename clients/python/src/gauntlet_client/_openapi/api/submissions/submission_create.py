from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.submission import Submission
from ...models.submission_create_request import SubmissionCreateRequest
from ...types import Response


def _get_kwargs(
    attempt: str,
    *,
    body: SubmissionCreateRequest,
    idempotency_key: str,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/attempts/{attempt}/submissions".format(
            attempt=quote(str(attempt), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Submission | None:
    if response.status_code == 200:
        response_200 = Submission.from_dict(response.json())

        return response_200

    if response.status_code == 202:
        response_202 = Submission.from_dict(response.json())

        return response_202

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

    if response.status_code == 422:
        response_422 = Error.from_dict(response.json())

        return response_422

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | Submission]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    attempt: str,
    *,
    client: AuthenticatedClient,
    body: SubmissionCreateRequest,
    idempotency_key: str,
) -> Response[Error | Submission]:
    """Submit a patch for evaluation

     Step 4 of the workflow. Submits a unified diff against the workspace (as `git diff`
    prints it; text only, inside the workspace). Evaluation runs in the background: the answer is `202`
    with the
    submission in state `queued` and a `Location` header naming it; poll that URL (step 5) for the
    verdict.

    Send an `Idempotency-Key` header (any unique string up to 200 characters, e.g. a UUID): a retried
    request with the
    same key and body returns the first submission (`200`); the same key with a different body is
    refused (`422`).
    `trace`, `tokens`, `cost_usd` and `claimed_elapsed_seconds` are optional; cost feeds honest
    reporting (an agent that
    reports none is shown as "not reported", never as free). Timing always uses the server's clock.

    A patch that does not apply, is binary, empty, too large or leaves the workspace is refused with
    `400` and a stable
    code; quotas (per attempt, per day, concurrent evaluations) answer `429 quota_exceeded`.

    Args:
        attempt (str):
        idempotency_key (str):
        body (SubmissionCreateRequest): Request bodies refuse fields they do not know, naming
            each, instead of ignoring them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Submission]
    """

    kwargs = _get_kwargs(
        attempt=attempt,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    attempt: str,
    *,
    client: AuthenticatedClient,
    body: SubmissionCreateRequest,
    idempotency_key: str,
) -> Error | Submission | None:
    """Submit a patch for evaluation

     Step 4 of the workflow. Submits a unified diff against the workspace (as `git diff`
    prints it; text only, inside the workspace). Evaluation runs in the background: the answer is `202`
    with the
    submission in state `queued` and a `Location` header naming it; poll that URL (step 5) for the
    verdict.

    Send an `Idempotency-Key` header (any unique string up to 200 characters, e.g. a UUID): a retried
    request with the
    same key and body returns the first submission (`200`); the same key with a different body is
    refused (`422`).
    `trace`, `tokens`, `cost_usd` and `claimed_elapsed_seconds` are optional; cost feeds honest
    reporting (an agent that
    reports none is shown as "not reported", never as free). Timing always uses the server's clock.

    A patch that does not apply, is binary, empty, too large or leaves the workspace is refused with
    `400` and a stable
    code; quotas (per attempt, per day, concurrent evaluations) answer `429 quota_exceeded`.

    Args:
        attempt (str):
        idempotency_key (str):
        body (SubmissionCreateRequest): Request bodies refuse fields they do not know, naming
            each, instead of ignoring them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Submission
    """

    return sync_detailed(
        attempt=attempt,
        client=client,
        body=body,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    attempt: str,
    *,
    client: AuthenticatedClient,
    body: SubmissionCreateRequest,
    idempotency_key: str,
) -> Response[Error | Submission]:
    """Submit a patch for evaluation

     Step 4 of the workflow. Submits a unified diff against the workspace (as `git diff`
    prints it; text only, inside the workspace). Evaluation runs in the background: the answer is `202`
    with the
    submission in state `queued` and a `Location` header naming it; poll that URL (step 5) for the
    verdict.

    Send an `Idempotency-Key` header (any unique string up to 200 characters, e.g. a UUID): a retried
    request with the
    same key and body returns the first submission (`200`); the same key with a different body is
    refused (`422`).
    `trace`, `tokens`, `cost_usd` and `claimed_elapsed_seconds` are optional; cost feeds honest
    reporting (an agent that
    reports none is shown as "not reported", never as free). Timing always uses the server's clock.

    A patch that does not apply, is binary, empty, too large or leaves the workspace is refused with
    `400` and a stable
    code; quotas (per attempt, per day, concurrent evaluations) answer `429 quota_exceeded`.

    Args:
        attempt (str):
        idempotency_key (str):
        body (SubmissionCreateRequest): Request bodies refuse fields they do not know, naming
            each, instead of ignoring them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Submission]
    """

    kwargs = _get_kwargs(
        attempt=attempt,
        body=body,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    attempt: str,
    *,
    client: AuthenticatedClient,
    body: SubmissionCreateRequest,
    idempotency_key: str,
) -> Error | Submission | None:
    """Submit a patch for evaluation

     Step 4 of the workflow. Submits a unified diff against the workspace (as `git diff`
    prints it; text only, inside the workspace). Evaluation runs in the background: the answer is `202`
    with the
    submission in state `queued` and a `Location` header naming it; poll that URL (step 5) for the
    verdict.

    Send an `Idempotency-Key` header (any unique string up to 200 characters, e.g. a UUID): a retried
    request with the
    same key and body returns the first submission (`200`); the same key with a different body is
    refused (`422`).
    `trace`, `tokens`, `cost_usd` and `claimed_elapsed_seconds` are optional; cost feeds honest
    reporting (an agent that
    reports none is shown as "not reported", never as free). Timing always uses the server's clock.

    A patch that does not apply, is binary, empty, too large or leaves the workspace is refused with
    `400` and a stable
    code; quotas (per attempt, per day, concurrent evaluations) answer `429 quota_exceeded`.

    Args:
        attempt (str):
        idempotency_key (str):
        body (SubmissionCreateRequest): Request bodies refuse fields they do not know, naming
            each, instead of ignoring them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Submission
    """

    return (
        await asyncio_detailed(
            attempt=attempt,
            client=client,
            body=body,
            idempotency_key=idempotency_key,
        )
    ).parsed
