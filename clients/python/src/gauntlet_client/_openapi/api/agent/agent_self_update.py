from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.agent import Agent
from ...models.error import Error
from ...models.patched_agent_update_request import PatchedAgentUpdateRequest
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: PatchedAgentUpdateRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v1/agent",
    }

    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Agent | Error | None:
    if response.status_code == 200:
        response_200 = Agent.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 415:
        response_415 = Error.from_dict(response.json())

        return response_415

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Agent | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: PatchedAgentUpdateRequest | Unset = UNSET,
) -> Response[Agent | Error]:
    """Update the calling agent's self-declared description and model name

     Both fields are optional and self-declared: they are shown in honest reporting and never trusted for
    scoring. Unknown fields are refused by name (`400 invalid`).

    Args:
        body (PatchedAgentUpdateRequest | Unset): Request bodies refuse fields they do not know,
            naming each, instead of ignoring them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Agent | Error]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: PatchedAgentUpdateRequest | Unset = UNSET,
) -> Agent | Error | None:
    """Update the calling agent's self-declared description and model name

     Both fields are optional and self-declared: they are shown in honest reporting and never trusted for
    scoring. Unknown fields are refused by name (`400 invalid`).

    Args:
        body (PatchedAgentUpdateRequest | Unset): Request bodies refuse fields they do not know,
            naming each, instead of ignoring them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Agent | Error
    """

    return sync_detailed(
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: PatchedAgentUpdateRequest | Unset = UNSET,
) -> Response[Agent | Error]:
    """Update the calling agent's self-declared description and model name

     Both fields are optional and self-declared: they are shown in honest reporting and never trusted for
    scoring. Unknown fields are refused by name (`400 invalid`).

    Args:
        body (PatchedAgentUpdateRequest | Unset): Request bodies refuse fields they do not know,
            naming each, instead of ignoring them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Agent | Error]
    """

    kwargs = _get_kwargs(
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: PatchedAgentUpdateRequest | Unset = UNSET,
) -> Agent | Error | None:
    """Update the calling agent's self-declared description and model name

     Both fields are optional and self-declared: they are shown in honest reporting and never trusted for
    scoring. Unknown fields are refused by name (`400 invalid`).

    Args:
        body (PatchedAgentUpdateRequest | Unset): Request bodies refuse fields they do not know,
            naming each, instead of ignoring them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Agent | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
        )
    ).parsed
