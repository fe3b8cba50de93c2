from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.replay_webhook_dead_letters_body import ReplayWebhookDeadLettersBody
from ...models.replay_webhook_dead_letters_response_202 import (
    ReplayWebhookDeadLettersResponse202,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: ReplayWebhookDeadLettersBody,
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
        "url": "/api/v1/webhooks/{id}/replay".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | ReplayWebhookDeadLettersResponse202 | None:
    if response.status_code == 202:
        response_202 = ReplayWebhookDeadLettersResponse202.from_dict(response.json())

        return response_202

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
) -> Response[Error | ReplayWebhookDeadLettersResponse202]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: ReplayWebhookDeadLettersBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | ReplayWebhookDeadLettersResponse202]:
    """Redeliver all dead letters since a time

     Body `{ since: date-time }`: every event whose latest delivery run became a dead letter at or after
    `since` gets a new run (same event id), oldest first, at most 500 per call (`has_more`). 409
    WEBHOOK_NOT_ACTIVE when the subscription is paused or disabled. Also: `npm run webhooks:replay`.
    Subscriptions belong to the caller's team when the caller is a recruiter with a team, otherwise to
    the caller; another owner's subscription answers 404.

    Scope: `webhooks:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        id (str):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (ReplayWebhookDeadLettersBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ReplayWebhookDeadLettersResponse202]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    body: ReplayWebhookDeadLettersBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | ReplayWebhookDeadLettersResponse202 | None:
    """Redeliver all dead letters since a time

     Body `{ since: date-time }`: every event whose latest delivery run became a dead letter at or after
    `since` gets a new run (same event id), oldest first, at most 500 per call (`has_more`). 409
    WEBHOOK_NOT_ACTIVE when the subscription is paused or disabled. Also: `npm run webhooks:replay`.
    Subscriptions belong to the caller's team when the caller is a recruiter with a team, otherwise to
    the caller; another owner's subscription answers 404.

    Scope: `webhooks:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        id (str):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (ReplayWebhookDeadLettersBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ReplayWebhookDeadLettersResponse202
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: ReplayWebhookDeadLettersBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | ReplayWebhookDeadLettersResponse202]:
    """Redeliver all dead letters since a time

     Body `{ since: date-time }`: every event whose latest delivery run became a dead letter at or after
    `since` gets a new run (same event id), oldest first, at most 500 per call (`has_more`). 409
    WEBHOOK_NOT_ACTIVE when the subscription is paused or disabled. Also: `npm run webhooks:replay`.
    Subscriptions belong to the caller's team when the caller is a recruiter with a team, otherwise to
    the caller; another owner's subscription answers 404.

    Scope: `webhooks:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        id (str):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (ReplayWebhookDeadLettersBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ReplayWebhookDeadLettersResponse202]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: ReplayWebhookDeadLettersBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | ReplayWebhookDeadLettersResponse202 | None:
    """Redeliver all dead letters since a time

     Body `{ since: date-time }`: every event whose latest delivery run became a dead letter at or after
    `since` gets a new run (same event id), oldest first, at most 500 per call (`has_more`). 409
    WEBHOOK_NOT_ACTIVE when the subscription is paused or disabled. Also: `npm run webhooks:replay`.
    Subscriptions belong to the caller's team when the caller is a recruiter with a team, otherwise to
    the caller; another owner's subscription answers 404.

    Scope: `webhooks:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        id (str):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (ReplayWebhookDeadLettersBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ReplayWebhookDeadLettersResponse202
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            x_agent_identity=x_agent_identity,
            idempotency_key=idempotency_key,
        )
    ).parsed
