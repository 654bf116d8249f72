from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.attempt import Attempt
from ...models.attempt_abandon_request import AttemptAbandonRequest
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    attempt: str,
    *,
    body: AttemptAbandonRequest | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/attempts/{attempt}/abandon".format(
            attempt=quote(str(attempt), safe=""),
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
    body: AttemptAbandonRequest | Unset = UNSET,
) -> Response[Attempt | Error]:
    """Abandon an open attempt

     Ends an open attempt before it expires. The attempt stays used: it counts toward the per-challenge
    limit and, in honest reporting, as an attempt that did not solve. Its workspace is no longer served
    and it takes no more submissions, so the next `POST /challenges/{challenge}/attempts` starts a fresh
    attempt. Refused with `409 evaluation_pending` while one of its submissions is being evaluated (the
    verdict may still solve it) and with `409 attempt_not_open` for a solved or expired attempt.
    Abandoning an abandoned attempt again returns it unchanged.

    Args:
        attempt (str):
        body (AttemptAbandonRequest | Unset): Request bodies refuse fields they do not know,
            naming each, instead of ignoring them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Attempt | Error]
    """

    kwargs = _get_kwargs(
        attempt=attempt,
        body=body,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    attempt: str,
    *,
    client: AuthenticatedClient,
    body: AttemptAbandonRequest | Unset = UNSET,
) -> Attempt | Error | None:
    """Abandon an open attempt

     Ends an open attempt before it expires. The attempt stays used: it counts toward the per-challenge
    limit and, in honest reporting, as an attempt that did not solve. Its workspace is no longer served
    and it takes no more submissions, so the next `POST /challenges/{challenge}/attempts` starts a fresh
    attempt. Refused with `409 evaluation_pending` while one of its submissions is being evaluated (the
    verdict may still solve it) and with `409 attempt_not_open` for a solved or expired attempt.
    Abandoning an abandoned attempt again returns it unchanged.

    Args:
        attempt (str):
        body (AttemptAbandonRequest | Unset): Request bodies refuse fields they do not know,
            naming each, instead of ignoring them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Attempt | Error
    """

    return sync_detailed(
        attempt=attempt,
        client=client,
        body=body,
    ).parsed


async def asyncio_detailed(
    attempt: str,
    *,
    client: AuthenticatedClient,
    body: AttemptAbandonRequest | Unset = UNSET,
) -> Response[Attempt | Error]:
    """Abandon an open attempt

     Ends an open attempt before it expires. The attempt stays used: it counts toward the per-challenge
    limit and, in honest reporting, as an attempt that did not solve. Its workspace is no longer served
    and it takes no more submissions, so the next `POST /challenges/{challenge}/attempts` starts a fresh
    attempt. Refused with `409 evaluation_pending` while one of its submissions is being evaluated (the
    verdict may still solve it) and with `409 attempt_not_open` for a solved or expired attempt.
    Abandoning an abandoned attempt again returns it unchanged.

    Args:
        attempt (str):
        body (AttemptAbandonRequest | Unset): Request bodies refuse fields they do not know,
            naming each, instead of ignoring them.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Attempt | Error]
    """

    kwargs = _get_kwargs(
        attempt=attempt,
        body=body,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    attempt: str,
    *,
    client: AuthenticatedClient,
    body: AttemptAbandonRequest | Unset = UNSET,
) -> Attempt | Error | None:
    """Abandon an open attempt

     Ends an open attempt before it expires. The attempt stays used: it counts toward the per-challenge
    limit and, in honest reporting, as an attempt that did not solve. Its workspace is no longer served
    and it takes no more submissions, so the next `POST /challenges/{challenge}/attempts` starts a fresh
    attempt. Refused with `409 evaluation_pending` while one of its submissions is being evaluated (the
    verdict may still solve it) and with `409 attempt_not_open` for a solved or expired attempt.
    Abandoning an abandoned attempt again returns it unchanged.

    Args:
        attempt (str):
        body (AttemptAbandonRequest | Unset): Request bodies refuse fields they do not know,
            naming each, instead of ignoring them.

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
            body=body,
        )
    ).parsed
