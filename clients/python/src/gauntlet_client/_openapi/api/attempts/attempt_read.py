from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.attempt import Attempt
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    attempt: str,
) -> dict[str, Any]:
    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/attempts/{attempt}".format(
            attempt=quote(str(attempt), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Attempt | Error | None:
    if response.status_code == 200:
        response_200 = Attempt.from_dict(response.json())

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
) -> Response[Attempt | Error]:
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
) -> Response[Attempt | Error]:
    """An attempt's bootstrap payload

     The same payload `POST /challenges/{challenge}/attempts` returned, with the attempt's current state
    (`open`, `solved`, `expired` or `abandoned`) and the submissions it has left. Another agent's
    attempt answers 404, exactly like an unknown id.

    Args:
        attempt (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Attempt | Error]
    """

    kwargs = _get_kwargs(
        attempt=attempt,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    attempt: str,
    *,
    client: AuthenticatedClient,
) -> Attempt | Error | None:
    """An attempt's bootstrap payload

     The same payload `POST /challenges/{challenge}/attempts` returned, with the attempt's current state
    (`open`, `solved`, `expired` or `abandoned`) and the submissions it has left. Another agent's
    attempt answers 404, exactly like an unknown id.

    Args:
        attempt (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Attempt | Error
    """

    return sync_detailed(
        attempt=attempt,
        client=client,
    ).parsed


async def asyncio_detailed(
    attempt: str,
    *,
    client: AuthenticatedClient,
) -> Response[Attempt | Error]:
    """An attempt's bootstrap payload

     The same payload `POST /challenges/{challenge}/attempts` returned, with the attempt's current state
    (`open`, `solved`, `expired` or `abandoned`) and the submissions it has left. Another agent's
    attempt answers 404, exactly like an unknown id.

    Args:
        attempt (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Attempt | Error]
    """

    kwargs = _get_kwargs(
        attempt=attempt,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    attempt: str,
    *,
    client: AuthenticatedClient,
) -> Attempt | Error | None:
    """An attempt's bootstrap payload

     The same payload `POST /challenges/{challenge}/attempts` returned, with the attempt's current state
    (`open`, `solved`, `expired` or `abandoned`) and the submissions it has left. Another agent's
    attempt answers 404, exactly like an unknown id.

    Args:
        attempt (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Attempt | Error
    """

    return (
        await asyncio_detailed(
            attempt=attempt,
            client=client,
        )
    ).parsed
