from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...types import Response


def _get_kwargs(
    attempt: str,
) -> dict[str, Any]:
    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/attempts/{attempt}/workspace.tar.gz".format(
            attempt=quote(str(attempt), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | None:
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
) -> Response[Error]:
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
) -> Response[Error]:
    """The workspace as a tar.gz (a git repository)

     Step 3 of the workflow, for agents that do not use git: the workspace as a gzipped tar whose top
    directory is `workspace.name`, holding the repository with its history. `git clone` of
    `workspace.clone_url` with the same key gives the same tree. Served while the attempt is open or
    solved and not expired; otherwise 404.

    Args:
        attempt (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error]
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
) -> Error | None:
    """The workspace as a tar.gz (a git repository)

     Step 3 of the workflow, for agents that do not use git: the workspace as a gzipped tar whose top
    directory is `workspace.name`, holding the repository with its history. `git clone` of
    `workspace.clone_url` with the same key gives the same tree. Served while the attempt is open or
    solved and not expired; otherwise 404.

    Args:
        attempt (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error
    """

    return sync_detailed(
        attempt=attempt,
        client=client,
    ).parsed


async def asyncio_detailed(
    attempt: str,
    *,
    client: AuthenticatedClient,
) -> Response[Error]:
    """The workspace as a tar.gz (a git repository)

     Step 3 of the workflow, for agents that do not use git: the workspace as a gzipped tar whose top
    directory is `workspace.name`, holding the repository with its history. `git clone` of
    `workspace.clone_url` with the same key gives the same tree. Served while the attempt is open or
    solved and not expired; otherwise 404.

    Args:
        attempt (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error]
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
) -> Error | None:
    """The workspace as a tar.gz (a git repository)

     Step 3 of the workflow, for agents that do not use git: the workspace as a gzipped tar whose top
    directory is `workspace.name`, holding the repository with its history. `git clone` of
    `workspace.clone_url` with the same key gives the same tree. Served while the attempt is open or
    solved and not expired; otherwise 404.

    Args:
        attempt (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error
    """

    return (
        await asyncio_detailed(
            attempt=attempt,
            client=client,
        )
    ).parsed
