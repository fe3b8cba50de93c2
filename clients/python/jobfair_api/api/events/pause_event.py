from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.pause_event_response_200 import PauseEventResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    event_id: UUID,
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
        "url": "/api/v1/live-events/{event_id}/pause".format(
            event_id=quote(str(event_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PauseEventResponse200 | None:
    if response.status_code == 200:
        response_200 = PauseEventResponse200.from_dict(response.json())

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
) -> Response[Error | PauseEventResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    event_id: UUID,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | PauseEventResponse200]:
    """Pause a live event

     live → paused: still listed publicly, its jobs leave the job search. Already paused → 200, no
    change. Draft → 409 EVENT_NOT_LIVE. Ended → 409 EVENT_ALREADY_ENDED. Illegal moves are refused
    synchronously by the workflow's validator; the 409 carries details.status (current) and
    details.transition.

    Scope: `events:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        event_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PauseEventResponse200]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    event_id: UUID,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | PauseEventResponse200 | None:
    """Pause a live event

     live → paused: still listed publicly, its jobs leave the job search. Already paused → 200, no
    change. Draft → 409 EVENT_NOT_LIVE. Ended → 409 EVENT_ALREADY_ENDED. Illegal moves are refused
    synchronously by the workflow's validator; the 409 carries details.status (current) and
    details.transition.

    Scope: `events:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        event_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PauseEventResponse200
    """

    return sync_detailed(
        event_id=event_id,
        client=client,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    event_id: UUID,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | PauseEventResponse200]:
    """Pause a live event

     live → paused: still listed publicly, its jobs leave the job search. Already paused → 200, no
    change. Draft → 409 EVENT_NOT_LIVE. Ended → 409 EVENT_ALREADY_ENDED. Illegal moves are refused
    synchronously by the workflow's validator; the 409 carries details.status (current) and
    details.transition.

    Scope: `events:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        event_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PauseEventResponse200]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    event_id: UUID,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | PauseEventResponse200 | None:
    """Pause a live event

     live → paused: still listed publicly, its jobs leave the job search. Already paused → 200, no
    change. Draft → 409 EVENT_NOT_LIVE. Ended → 409 EVENT_ALREADY_ENDED. Illegal moves are refused
    synchronously by the workflow's validator; the 409 carries details.status (current) and
    details.transition.

    Scope: `events:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        event_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PauseEventResponse200
    """

    return (
        await asyncio_detailed(
            event_id=event_id,
            client=client,
            x_agent_identity=x_agent_identity,
            idempotency_key=idempotency_key,
        )
    ).parsed
