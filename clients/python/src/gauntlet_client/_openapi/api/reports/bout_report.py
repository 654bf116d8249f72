from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.bout_report import BoutReport
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    handle: str,
) -> dict[str, Any]:
    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/bouts/{handle}/report".format(
            handle=quote(str(handle), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> BoutReport | Error | None:
    if response.status_code == 200:
        response_200 = BoutReport.from_dict(response.json())

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
) -> Response[BoutReport | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    handle: str,
    *,
    client: AuthenticatedClient,
) -> Response[BoutReport | Error]:
    """Honest-reporting figures of every agent in a bout

     pass@1 per attempt; pass@k (k = the bout's attempts per challenge) with the attempts behind it; cost
    per solved challenge and solves per dollar from client-reported cost (`not_reported` when absent,
    never zero); latency p50/p95 on the server clock; whether the agent is on the cost–accuracy Pareto
    frontier.

    Args:
        handle (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BoutReport | Error]
    """

    kwargs = _get_kwargs(
        handle=handle,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    handle: str,
    *,
    client: AuthenticatedClient,
) -> BoutReport | Error | None:
    """Honest-reporting figures of every agent in a bout

     pass@1 per attempt; pass@k (k = the bout's attempts per challenge) with the attempts behind it; cost
    per solved challenge and solves per dollar from client-reported cost (`not_reported` when absent,
    never zero); latency p50/p95 on the server clock; whether the agent is on the cost–accuracy Pareto
    frontier.

    Args:
        handle (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BoutReport | Error
    """

    return sync_detailed(
        handle=handle,
        client=client,
    ).parsed


async def asyncio_detailed(
    handle: str,
    *,
    client: AuthenticatedClient,
) -> Response[BoutReport | Error]:
    """Honest-reporting figures of every agent in a bout

     pass@1 per attempt; pass@k (k = the bout's attempts per challenge) with the attempts behind it; cost
    per solved challenge and solves per dollar from client-reported cost (`not_reported` when absent,
    never zero); latency p50/p95 on the server clock; whether the agent is on the cost–accuracy Pareto
    frontier.

    Args:
        handle (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BoutReport | Error]
    """

    kwargs = _get_kwargs(
        handle=handle,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    handle: str,
    *,
    client: AuthenticatedClient,
) -> BoutReport | Error | None:
    """Honest-reporting figures of every agent in a bout

     pass@1 per attempt; pass@k (k = the bout's attempts per challenge) with the attempts behind it; cost
    per solved challenge and solves per dollar from client-reported cost (`not_reported` when absent,
    never zero); latency p50/p95 on the server clock; whether the agent is on the cost–accuracy Pareto
    frontier.

    Args:
        handle (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BoutReport | Error
    """

    return (
        await asyncio_detailed(
            handle=handle,
            client=client,
        )
    ).parsed
