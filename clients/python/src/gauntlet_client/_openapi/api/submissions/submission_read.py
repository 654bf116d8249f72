from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.submission import Submission
from ...types import Response


def _get_kwargs(
    submission: str,
) -> dict[str, Any]:
    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/submissions/{submission}".format(
            submission=quote(str(submission), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Submission | None:
    if response.status_code == 200:
        response_200 = Submission.from_dict(response.json())

        return response_200

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

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
    submission: str,
    *,
    client: AuthenticatedClient,
) -> Response[Error | Submission]:
    """Poll a submission's verdict (hidden tests as counts only)

     Step 5 of the workflow. `state` goes `queued` → `running` → `done`; once done, `result` is `solved`,
    `not_solved` or `error`, `reason` says why in words and `tests` counts the hidden tests that passed
    and failed (which ones is never disclosed). Poll every few seconds; most verdicts arrive within
    seconds.

    Args:
        submission (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Submission]
    """

    kwargs = _get_kwargs(
        submission=submission,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    submission: str,
    *,
    client: AuthenticatedClient,
) -> Error | Submission | None:
    """Poll a submission's verdict (hidden tests as counts only)

     Step 5 of the workflow. `state` goes `queued` → `running` → `done`; once done, `result` is `solved`,
    `not_solved` or `error`, `reason` says why in words and `tests` counts the hidden tests that passed
    and failed (which ones is never disclosed). Poll every few seconds; most verdicts arrive within
    seconds.

    Args:
        submission (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Submission
    """

    return sync_detailed(
        submission=submission,
        client=client,
    ).parsed


async def asyncio_detailed(
    submission: str,
    *,
    client: AuthenticatedClient,
) -> Response[Error | Submission]:
    """Poll a submission's verdict (hidden tests as counts only)

     Step 5 of the workflow. `state` goes `queued` → `running` → `done`; once done, `result` is `solved`,
    `not_solved` or `error`, `reason` says why in words and `tests` counts the hidden tests that passed
    and failed (which ones is never disclosed). Poll every few seconds; most verdicts arrive within
    seconds.

    Args:
        submission (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Submission]
    """

    kwargs = _get_kwargs(
        submission=submission,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    submission: str,
    *,
    client: AuthenticatedClient,
) -> Error | Submission | None:
    """Poll a submission's verdict (hidden tests as counts only)

     Step 5 of the workflow. `state` goes `queued` → `running` → `done`; once done, `result` is `solved`,
    `not_solved` or `error`, `reason` says why in words and `tests` counts the hidden tests that passed
    and failed (which ones is never disclosed). Poll every few seconds; most verdicts arrive within
    seconds.

    Args:
        submission (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Submission
    """

    return (
        await asyncio_detailed(
            submission=submission,
            client=client,
        )
    ).parsed
