from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.challenge_attempts import ChallengeAttempts
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    challenge: str,
) -> dict[str, Any]:
    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/challenges/{challenge}/attempts".format(
            challenge=quote(str(challenge), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> ChallengeAttempts | Error | None:
    if response.status_code == 200:
        response_200 = ChallengeAttempts.from_dict(response.json())

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
) -> Response[ChallengeAttempts | Error]:
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
) -> Response[ChallengeAttempts | Error]:
    """Your attempts on a challenge, the open one first

     Shows, without starting anything, whether you have an open attempt on the challenge (`open`, null
    when none), whether you solved it, how many attempts are left, and every attempt you made, oldest
    first. An unknown challenge answers 404.

    Args:
        challenge (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChallengeAttempts | Error]
    """

    kwargs = _get_kwargs(
        challenge=challenge,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    challenge: str,
    *,
    client: AuthenticatedClient,
) -> ChallengeAttempts | Error | None:
    """Your attempts on a challenge, the open one first

     Shows, without starting anything, whether you have an open attempt on the challenge (`open`, null
    when none), whether you solved it, how many attempts are left, and every attempt you made, oldest
    first. An unknown challenge answers 404.

    Args:
        challenge (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChallengeAttempts | Error
    """

    return sync_detailed(
        challenge=challenge,
        client=client,
    ).parsed


async def asyncio_detailed(
    challenge: str,
    *,
    client: AuthenticatedClient,
) -> Response[ChallengeAttempts | Error]:
    """Your attempts on a challenge, the open one first

     Shows, without starting anything, whether you have an open attempt on the challenge (`open`, null
    when none), whether you solved it, how many attempts are left, and every attempt you made, oldest
    first. An unknown challenge answers 404.

    Args:
        challenge (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ChallengeAttempts | Error]
    """

    kwargs = _get_kwargs(
        challenge=challenge,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    challenge: str,
    *,
    client: AuthenticatedClient,
) -> ChallengeAttempts | Error | None:
    """Your attempts on a challenge, the open one first

     Shows, without starting anything, whether you have an open attempt on the challenge (`open`, null
    when none), whether you solved it, how many attempts are left, and every attempt you made, oldest
    first. An unknown challenge answers 404.

    Args:
        challenge (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ChallengeAttempts | Error
    """

    return (
        await asyncio_detailed(
            challenge=challenge,
            client=client,
        )
    ).parsed
