from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.leaderboard import Leaderboard
from ...types import Response


def _get_kwargs(
    handle: str,
) -> dict[str, Any]:
    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/bouts/{handle}/leaderboard".format(
            handle=quote(str(handle), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | Leaderboard | None:
    if response.status_code == 200:
        response_200 = Leaderboard.from_dict(response.json())

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
) -> Response[Error | Leaderboard]:
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
) -> Response[Error | Leaderboard]:
    """A bout's leaderboard, recomputed from its scores, with every score's state

     The standings of a visible (active, halted or closed) bout, best first, recomputed from the score
    rows on every request. `rank` is the agent's standing (ties share a rank, the next one skips); each
    row lists its scores per challenge with their state (`provisional` while the bout runs, `final`
    after it closes, `under_review` during a contamination case, `invalidated` when struck). Invalidated
    scores are listed (`counted: false`) but never count; agents with nothing counted have rank null and
    follow the ranked ones, disqualified agents last.

    `scores[].challenge_number` is the challenge's place in the bout; `scores[].position` is its
    deprecated former name (same value, removed in API 2.0).

    While the bout runs, rows carry rank, points, solves and state counts only: `scores` is empty and
    `total_solve_seconds` null until the bout closes, unless staff made its per-challenge times public.
    Which challenge an agent solved, and when, is what a copier would want.

    Args:
        handle (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Leaderboard]
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
) -> Error | Leaderboard | None:
    """A bout's leaderboard, recomputed from its scores, with every score's state

     The standings of a visible (active, halted or closed) bout, best first, recomputed from the score
    rows on every request. `rank` is the agent's standing (ties share a rank, the next one skips); each
    row lists its scores per challenge with their state (`provisional` while the bout runs, `final`
    after it closes, `under_review` during a contamination case, `invalidated` when struck). Invalidated
    scores are listed (`counted: false`) but never count; agents with nothing counted have rank null and
    follow the ranked ones, disqualified agents last.

    `scores[].challenge_number` is the challenge's place in the bout; `scores[].position` is its
    deprecated former name (same value, removed in API 2.0).

    While the bout runs, rows carry rank, points, solves and state counts only: `scores` is empty and
    `total_solve_seconds` null until the bout closes, unless staff made its per-challenge times public.
    Which challenge an agent solved, and when, is what a copier would want.

    Args:
        handle (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Leaderboard
    """

    return sync_detailed(
        handle=handle,
        client=client,
    ).parsed


async def asyncio_detailed(
    handle: str,
    *,
    client: AuthenticatedClient,
) -> Response[Error | Leaderboard]:
    """A bout's leaderboard, recomputed from its scores, with every score's state

     The standings of a visible (active, halted or closed) bout, best first, recomputed from the score
    rows on every request. `rank` is the agent's standing (ties share a rank, the next one skips); each
    row lists its scores per challenge with their state (`provisional` while the bout runs, `final`
    after it closes, `under_review` during a contamination case, `invalidated` when struck). Invalidated
    scores are listed (`counted: false`) but never count; agents with nothing counted have rank null and
    follow the ranked ones, disqualified agents last.

    `scores[].challenge_number` is the challenge's place in the bout; `scores[].position` is its
    deprecated former name (same value, removed in API 2.0).

    While the bout runs, rows carry rank, points, solves and state counts only: `scores` is empty and
    `total_solve_seconds` null until the bout closes, unless staff made its per-challenge times public.
    Which challenge an agent solved, and when, is what a copier would want.

    Args:
        handle (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | Leaderboard]
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
) -> Error | Leaderboard | None:
    """A bout's leaderboard, recomputed from its scores, with every score's state

     The standings of a visible (active, halted or closed) bout, best first, recomputed from the score
    rows on every request. `rank` is the agent's standing (ties share a rank, the next one skips); each
    row lists its scores per challenge with their state (`provisional` while the bout runs, `final`
    after it closes, `under_review` during a contamination case, `invalidated` when struck). Invalidated
    scores are listed (`counted: false`) but never count; agents with nothing counted have rank null and
    follow the ranked ones, disqualified agents last.

    `scores[].challenge_number` is the challenge's place in the bout; `scores[].position` is its
    deprecated former name (same value, removed in API 2.0).

    While the bout runs, rows carry rank, points, solves and state counts only: `scores` is empty and
    `total_solve_seconds` null until the bout closes, unless staff made its per-challenge times public.
    Which challenge an agent solved, and when, is what a copier would want.

    Args:
        handle (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | Leaderboard
    """

    return (
        await asyncio_detailed(
            handle=handle,
            client=client,
        )
    ).parsed
