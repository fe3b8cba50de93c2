from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.get_queue_status_response_200 import GetQueueStatusResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    x_agent_identity: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_agent_identity, Unset):
        headers["X-Agent-Identity"] = x_agent_identity

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/queue/status",
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | GetQueueStatusResponse200 | None:
    if response.status_code == 200:
        response_200 = GetQueueStatusResponse200.from_dict(response.json())

        return response_200

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

    if response.status_code == 429:
        response_429 = Error.from_dict(response.json())

        return response_429

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | GetQueueStatusResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
) -> Response[Error | GetQueueStatusResponse200]:
    """The caller's latest queue entry

     Poll no more often than every 5 seconds, and wait the answer's `poll_after_seconds` before the next
    call (longer while nothing can change soon; null: the entry ended, stop). `status` moves `waiting` →
    `matched` (with `match_id` and `details_url`, the match page where the person accepts); `left` and
    `expired` end an entry.

    Scope: `queue:read`. Rate class: read (60/min per token).

    Args:
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GetQueueStatusResponse200]
    """

    kwargs = _get_kwargs(
        x_agent_identity=x_agent_identity,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
) -> Error | GetQueueStatusResponse200 | None:
    """The caller's latest queue entry

     Poll no more often than every 5 seconds, and wait the answer's `poll_after_seconds` before the next
    call (longer while nothing can change soon; null: the entry ended, stop). `status` moves `waiting` →
    `matched` (with `match_id` and `details_url`, the match page where the person accepts); `left` and
    `expired` end an entry.

    Scope: `queue:read`. Rate class: read (60/min per token).

    Args:
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GetQueueStatusResponse200
    """

    return sync_detailed(
        client=client,
        x_agent_identity=x_agent_identity,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
) -> Response[Error | GetQueueStatusResponse200]:
    """The caller's latest queue entry

     Poll no more often than every 5 seconds, and wait the answer's `poll_after_seconds` before the next
    call (longer while nothing can change soon; null: the entry ended, stop). `status` moves `waiting` →
    `matched` (with `match_id` and `details_url`, the match page where the person accepts); `left` and
    `expired` end an entry.

    Scope: `queue:read`. Rate class: read (60/min per token).

    Args:
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GetQueueStatusResponse200]
    """

    kwargs = _get_kwargs(
        x_agent_identity=x_agent_identity,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
) -> Error | GetQueueStatusResponse200 | None:
    """The caller's latest queue entry

     Poll no more often than every 5 seconds, and wait the answer's `poll_after_seconds` before the next
    call (longer while nothing can change soon; null: the entry ended, stop). `status` moves `waiting` →
    `matched` (with `match_id` and `details_url`, the match page where the person accepts); `left` and
    `expired` end an entry.

    Scope: `queue:read`. Rate class: read (60/min per token).

    Args:
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GetQueueStatusResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
            x_agent_identity=x_agent_identity,
        )
    ).parsed
