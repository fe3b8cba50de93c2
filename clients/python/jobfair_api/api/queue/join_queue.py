from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.join_queue_body_type_0 import JoinQueueBodyType0
from ...models.queue_join_response import QueueJoinResponse
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: JoinQueueBodyType0 | None,
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
        "url": "/api/v1/queue/join",
    }

    if isinstance(body, JoinQueueBodyType0):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | QueueJoinResponse | None:
    if response.status_code == 200:
        response_200 = QueueJoinResponse.from_dict(response.json())

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

    if response.status_code == 413:
        response_413 = Error.from_dict(response.json())

        return response_413

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
) -> Response[Error | QueueJoinResponse]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: JoinQueueBodyType0 | None,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | QueueJoinResponse]:
    """Create or resume the caller's queue entry

     Optional body `{ live_event_slug }` (3–64 characters) or the guide's alias `{ event_id }` (a slug or
    id); no other property. Unknown or non-live event → 404; no completed profile → 409
    ONBOARDING_INCOMPLETE. Calling again resumes the same waiting entry; while the entry is matched (for
    this event or another) → 409 QUEUE_ENTRY_MATCHED with `details.match_id` and `details.details_url`
    (the match page where the person accepts or declines; POST /queue/leave declines it and leaves).
    `X-Agent-Identity` (or the token name) is kept on the entry. `join_url` is where the person follows
    the queue; the match is accepted at the match's `details_url`.

    Scope: `queue:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (JoinQueueBodyType0 | None):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | QueueJoinResponse]
    """

    kwargs = _get_kwargs(
        body=body,
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
    body: JoinQueueBodyType0 | None,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | QueueJoinResponse | None:
    """Create or resume the caller's queue entry

     Optional body `{ live_event_slug }` (3–64 characters) or the guide's alias `{ event_id }` (a slug or
    id); no other property. Unknown or non-live event → 404; no completed profile → 409
    ONBOARDING_INCOMPLETE. Calling again resumes the same waiting entry; while the entry is matched (for
    this event or another) → 409 QUEUE_ENTRY_MATCHED with `details.match_id` and `details.details_url`
    (the match page where the person accepts or declines; POST /queue/leave declines it and leaves).
    `X-Agent-Identity` (or the token name) is kept on the entry. `join_url` is where the person follows
    the queue; the match is accepted at the match's `details_url`.

    Scope: `queue:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (JoinQueueBodyType0 | None):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | QueueJoinResponse
    """

    return sync_detailed(
        client=client,
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: JoinQueueBodyType0 | None,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | QueueJoinResponse]:
    """Create or resume the caller's queue entry

     Optional body `{ live_event_slug }` (3–64 characters) or the guide's alias `{ event_id }` (a slug or
    id); no other property. Unknown or non-live event → 404; no completed profile → 409
    ONBOARDING_INCOMPLETE. Calling again resumes the same waiting entry; while the entry is matched (for
    this event or another) → 409 QUEUE_ENTRY_MATCHED with `details.match_id` and `details.details_url`
    (the match page where the person accepts or declines; POST /queue/leave declines it and leaves).
    `X-Agent-Identity` (or the token name) is kept on the entry. `join_url` is where the person follows
    the queue; the match is accepted at the match's `details_url`.

    Scope: `queue:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (JoinQueueBodyType0 | None):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | QueueJoinResponse]
    """

    kwargs = _get_kwargs(
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: JoinQueueBodyType0 | None,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | QueueJoinResponse | None:
    """Create or resume the caller's queue entry

     Optional body `{ live_event_slug }` (3–64 characters) or the guide's alias `{ event_id }` (a slug or
    id); no other property. Unknown or non-live event → 404; no completed profile → 409
    ONBOARDING_INCOMPLETE. Calling again resumes the same waiting entry; while the entry is matched (for
    this event or another) → 409 QUEUE_ENTRY_MATCHED with `details.match_id` and `details.details_url`
    (the match page where the person accepts or declines; POST /queue/leave declines it and leaves).
    `X-Agent-Identity` (or the token name) is kept on the entry. `join_url` is where the person follows
    the queue; the match is accepted at the match's `details_url`.

    Scope: `queue:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (JoinQueueBodyType0 | None):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | QueueJoinResponse
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_agent_identity=x_agent_identity,
            idempotency_key=idempotency_key,
        )
    ).parsed
