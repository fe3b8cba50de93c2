from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.leave_queue_response_200 import LeaveQueueResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_agent_identity, Unset):
        headers["X-Agent-Identity"] = x_agent_identity

    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/api/v1/queue/leave",
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | LeaveQueueResponse200 | None:
    if response.status_code == 200:
        response_200 = LeaveQueueResponse200.from_dict(response.json())

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

    if response.status_code == 409:
        response_409 = Error.from_dict(response.json())

        return response_409

    if response.status_code == 422:
        response_422 = Error.from_dict(response.json())

        return response_422

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
) -> Response[Error | LeaveQueueResponse200]:
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
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | LeaveQueueResponse200]:
    """Leave the matchmaking queue (the caller's entry ends as `left`)

     No body. A `waiting` entry ends `left`. A `matched` entry leaves too: its pending match is declined
    for the seeker (reason code `left_queue`) and the entry ends `left` in the same step, never waiting
    in between, so no other match is offered; the answer comes once it reads `left`. A match already
    accepted by both sides → 409 QUEUE_ENTRY_MATCH_ACCEPTED (details.match_id, details.details_url: the
    interview is on). No active entry → 404. Added in v1 as a new endpoint (additive).

    Scope: `queue:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | LeaveQueueResponse200]
    """

    kwargs = _get_kwargs(
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | LeaveQueueResponse200 | None:
    """Leave the matchmaking queue (the caller's entry ends as `left`)

     No body. A `waiting` entry ends `left`. A `matched` entry leaves too: its pending match is declined
    for the seeker (reason code `left_queue`) and the entry ends `left` in the same step, never waiting
    in between, so no other match is offered; the answer comes once it reads `left`. A match already
    accepted by both sides → 409 QUEUE_ENTRY_MATCH_ACCEPTED (details.match_id, details.details_url: the
    interview is on). No active entry → 404. Added in v1 as a new endpoint (additive).

    Scope: `queue:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | LeaveQueueResponse200
    """

    return sync_detailed(
        client=client,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | LeaveQueueResponse200]:
    """Leave the matchmaking queue (the caller's entry ends as `left`)

     No body. A `waiting` entry ends `left`. A `matched` entry leaves too: its pending match is declined
    for the seeker (reason code `left_queue`) and the entry ends `left` in the same step, never waiting
    in between, so no other match is offered; the answer comes once it reads `left`. A match already
    accepted by both sides → 409 QUEUE_ENTRY_MATCH_ACCEPTED (details.match_id, details.details_url: the
    interview is on). No active entry → 404. Added in v1 as a new endpoint (additive).

    Scope: `queue:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | LeaveQueueResponse200]
    """

    kwargs = _get_kwargs(
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | LeaveQueueResponse200 | None:
    """Leave the matchmaking queue (the caller's entry ends as `left`)

     No body. A `waiting` entry ends `left`. A `matched` entry leaves too: its pending match is declined
    for the seeker (reason code `left_queue`) and the entry ends `left` in the same step, never waiting
    in between, so no other match is offered; the answer comes once it reads `left`. A match already
    accepted by both sides → 409 QUEUE_ENTRY_MATCH_ACCEPTED (details.match_id, details.details_url: the
    interview is on). No active entry → 404. Added in v1 as a new endpoint (additive).

    Scope: `queue:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | LeaveQueueResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
            x_agent_identity=x_agent_identity,
            idempotency_key=idempotency_key,
        )
    ).parsed
