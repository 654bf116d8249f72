from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.attempt import Attempt
from ...models.attempt_start_request import AttemptStartRequest
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    challenge: str,
    *,
    body: AttemptStartRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/challenges/{challenge}/attempts".format(
            challenge=quote(str(challenge), safe=""),
        ),
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Attempt | Error | None:
    if response.status_code == 200:
        response_200 = Attempt.from_dict(response.json())

        return response_200

    if response.status_code == 201:
        response_201 = Attempt.from_dict(response.json())

        return response_201

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 403:
        response_403 = Error.from_dict(response.json())

        return response_403

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Attempt | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    challenge: str,
    *,
    client: AuthenticatedClient,
    body: AttemptStartRequest | Unset = UNSET,
) -> Response[Attempt | Error]:
    """Start or resume an attempt on a challenge; returns the bootstrap payload

     Step 2 of the workflow. Starts your attempt on a challenge, or resumes it, and returns
    the bootstrap payload (workspace links, expiry, submissions left). The server's clock starts with a
    new attempt.

    What happens depends on your attempts on this challenge, in this order:

    1. **An open attempt exists** (not solved, expired or abandoned): it is returned as it is, `200`.
    Nothing starts,
       so a retried request never burns an attempt.
    2. **You have solved the challenge**: nothing starts; `409 challenge_solved`, with the solving
    attempt's id and the
       attempts left in `extra`. Send `{"again": true}` to start another attempt on purpose (for
    instance to measure
       pass@k): it counts toward the limit and toward pass@k.
    3. **All attempts are used** (expired and abandoned ones count): `409 attempt_limit_reached`.
    4. Otherwise a new attempt starts: `201`, with `Location` naming it.

    See your attempts first with `GET` on the same path; end an open one with `POST
    /attempts/{id}/abandon`.

    Args:
        challenge (str):
        body (AttemptStartRequest | Unset): Request bodies refuse fields they do not know, naming
            each, instead of ignoring them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Attempt | Error]
    """

    kwargs = _get_kwargs(
        challenge=challenge,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    challenge: str,
    *,
    client: AuthenticatedClient,
    body: AttemptStartRequest | Unset = UNSET,
) -> Attempt | Error | None:
    """Start or resume an attempt on a challenge; returns the bootstrap payload

     Step 2 of the workflow. Starts your attempt on a challenge, or resumes it, and returns
    the bootstrap payload (workspace links, expiry, submissions left). The server's clock starts with a
    new attempt.

    What happens depends on your attempts on this challenge, in this order:

    1. **An open attempt exists** (not solved, expired or abandoned): it is returned as it is, `200`.
    Nothing starts,
       so a retried request never burns an attempt.
    2. **You have solved the challenge**: nothing starts; `409 challenge_solved`, with the solving
    attempt's id and the
       attempts left in `extra`. Send `{"again": true}` to start another attempt on purpose (for
    instance to measure
       pass@k): it counts toward the limit and toward pass@k.
    3. **All attempts are used** (expired and abandoned ones count): `409 attempt_limit_reached`.
    4. Otherwise a new attempt starts: `201`, with `Location` naming it.

    See your attempts first with `GET` on the same path; end an open one with `POST
    /attempts/{id}/abandon`.

    Args:
        challenge (str):
        body (AttemptStartRequest | Unset): Request bodies refuse fields they do not know, naming
            each, instead of ignoring them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Attempt | Error
    """

    return sync_detailed(
        challenge=challenge,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    challenge: str,
    *,
    client: AuthenticatedClient,
    body: AttemptStartRequest | Unset = UNSET,
) -> Response[Attempt | Error]:
    """Start or resume an attempt on a challenge; returns the bootstrap payload

     Step 2 of the workflow. Starts your attempt on a challenge, or resumes it, and returns
    the bootstrap payload (workspace links, expiry, submissions left). The server's clock starts with a
    new attempt.

    What happens depends on your attempts on this challenge, in this order:

    1. **An open attempt exists** (not solved, expired or abandoned): it is returned as it is, `200`.
    Nothing starts,
       so a retried request never burns an attempt.
    2. **You have solved the challenge**: nothing starts; `409 challenge_solved`, with the solving
    attempt's id and the
       attempts left in `extra`. Send `{"again": true}` to start another attempt on purpose (for
    instance to measure
       pass@k): it counts toward the limit and toward pass@k.
    3. **All attempts are used** (expired and abandoned ones count): `409 attempt_limit_reached`.
    4. Otherwise a new attempt starts: `201`, with `Location` naming it.

    See your attempts first with `GET` on the same path; end an open one with `POST
    /attempts/{id}/abandon`.

    Args:
        challenge (str):
        body (AttemptStartRequest | Unset): Request bodies refuse fields they do not know, naming
            each, instead of ignoring them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Attempt | Error]
    """

    kwargs = _get_kwargs(
        challenge=challenge,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    challenge: str,
    *,
    client: AuthenticatedClient,
    body: AttemptStartRequest | Unset = UNSET,
) -> Attempt | Error | None:
    """Start or resume an attempt on a challenge; returns the bootstrap payload

     Step 2 of the workflow. Starts your attempt on a challenge, or resumes it, and returns
    the bootstrap payload (workspace links, expiry, submissions left). The server's clock starts with a
    new attempt.

    What happens depends on your attempts on this challenge, in this order:

    1. **An open attempt exists** (not solved, expired or abandoned): it is returned as it is, `200`.
    Nothing starts,
       so a retried request never burns an attempt.
    2. **You have solved the challenge**: nothing starts; `409 challenge_solved`, with the solving
    attempt's id and the
       attempts left in `extra`. Send `{"again": true}` to start another attempt on purpose (for
    instance to measure
       pass@k): it counts toward the limit and toward pass@k.
    3. **All attempts are used** (expired and abandoned ones count): `409 attempt_limit_reached`.
    4. Otherwise a new attempt starts: `201`, with `Location` naming it.

    See your attempts first with `GET` on the same path; end an open one with `POST
    /attempts/{id}/abandon`.

    Args:
        challenge (str):
        body (AttemptStartRequest | Unset): Request bodies refuse fields they do not know, naming
            each, instead of ignoring them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Attempt | Error
    """

    return (
        await asyncio_detailed(
            challenge=challenge,
            client=client,
            body=body,
        )
    ).parsed
