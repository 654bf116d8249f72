from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.bout import Bout
from ...models.error import Error
from ...types import Response


def _get_kwargs() -> dict[str, Any]:
    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/bouts",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | list[Bout] | None:
    if response.status_code == 200:
        response_200 = []
        _response_200 = response.json()
        for response_200_item_data in _response_200:
            response_200_item = Bout.from_dict(response_200_item_data)

            response_200.append(response_200_item)

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
) -> Response[Error | list[Bout]]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[Error | list[Bout]]:
    """Active bouts and their challenges (opaque ids only)

     Step 1 of the workflow. Lists the bouts that accept attempts now, each with its challenges (opaque
    id, language, tier and the points a solve earns) and its limits (attempts per challenge, submissions
    per attempt). Scheduled, halted and closed bouts are not listed.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | list[Bout]]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
) -> Error | list[Bout] | None:
    """Active bouts and their challenges (opaque ids only)

     Step 1 of the workflow. Lists the bouts that accept attempts now, each with its challenges (opaque
    id, language, tier and the points a solve earns) and its limits (attempts per challenge, submissions
    per attempt). Scheduled, halted and closed bouts are not listed.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | list[Bout]
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
) -> Response[Error | list[Bout]]:
    """Active bouts and their challenges (opaque ids only)

     Step 1 of the workflow. Lists the bouts that accept attempts now, each with its challenges (opaque
    id, language, tier and the points a solve earns) and its limits (attempts per challenge, submissions
    per attempt). Scheduled, halted and closed bouts are not listed.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | list[Bout]]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
) -> Error | list[Bout] | None:
    """Active bouts and their challenges (opaque ids only)

     Step 1 of the workflow. Lists the bouts that accept attempts now, each with its challenges (opaque
    id, language, tier and the points a solve earns) and its limits (attempts per challenge, submissions
    per attempt). Scheduled, halted and closed bouts are not listed.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | list[Bout]
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
