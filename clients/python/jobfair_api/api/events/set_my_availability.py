from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.set_my_availability_body import SetMyAvailabilityBody
from ...models.set_my_availability_response_200 import SetMyAvailabilityResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    event_id: UUID,
    *,
    body: SetMyAvailabilityBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_agent_identity, Unset):
        headers["X-Agent-Identity"] = x_agent_identity

    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/v1/team/live-events/{event_id}/availability".format(
            event_id=quote(str(event_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | SetMyAvailabilityResponse200 | None:
    if response.status_code == 200:
        response_200 = SetMyAvailabilityResponse200.from_dict(response.json())

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
) -> Response[Error | SetMyAvailabilityResponse200]:
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
    body: SetMyAvailabilityBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | SetMyAvailabilityResponse200]:
    """The caller's availability for interviews at one of the team's events

     Body `{ available, capacity? }` (capacity 1–50 concurrent interviews; default: the previous value,
    else 1). Once any recruiter of an event has set availability, its new offers go round-robin (least
    recent offer first) to available recruiters with room; each match names its recruiter
    (`recruiter_user_id`). Going unavailable stops new offers; open offers and matches stay. The event's
    interview_slots remains the cap.

    Scope: `events:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        event_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (SetMyAvailabilityBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SetMyAvailabilityResponse200]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
        body=body,
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
    body: SetMyAvailabilityBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | SetMyAvailabilityResponse200 | None:
    """The caller's availability for interviews at one of the team's events

     Body `{ available, capacity? }` (capacity 1–50 concurrent interviews; default: the previous value,
    else 1). Once any recruiter of an event has set availability, its new offers go round-robin (least
    recent offer first) to available recruiters with room; each match names its recruiter
    (`recruiter_user_id`). Going unavailable stops new offers; open offers and matches stay. The event's
    interview_slots remains the cap.

    Scope: `events:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        event_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (SetMyAvailabilityBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SetMyAvailabilityResponse200
    """

    return sync_detailed(
        event_id=event_id,
        client=client,
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    event_id: UUID,
    *,
    client: AuthenticatedClient,
    body: SetMyAvailabilityBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | SetMyAvailabilityResponse200]:
    """The caller's availability for interviews at one of the team's events

     Body `{ available, capacity? }` (capacity 1–50 concurrent interviews; default: the previous value,
    else 1). Once any recruiter of an event has set availability, its new offers go round-robin (least
    recent offer first) to available recruiters with room; each match names its recruiter
    (`recruiter_user_id`). Going unavailable stops new offers; open offers and matches stay. The event's
    interview_slots remains the cap.

    Scope: `events:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        event_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (SetMyAvailabilityBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SetMyAvailabilityResponse200]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    event_id: UUID,
    *,
    client: AuthenticatedClient,
    body: SetMyAvailabilityBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | SetMyAvailabilityResponse200 | None:
    """The caller's availability for interviews at one of the team's events

     Body `{ available, capacity? }` (capacity 1–50 concurrent interviews; default: the previous value,
    else 1). Once any recruiter of an event has set availability, its new offers go round-robin (least
    recent offer first) to available recruiters with room; each match names its recruiter
    (`recruiter_user_id`). Going unavailable stops new offers; open offers and matches stay. The event's
    interview_slots remains the cap.

    Scope: `events:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        event_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (SetMyAvailabilityBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SetMyAvailabilityResponse200
    """

    return (
        await asyncio_detailed(
            event_id=event_id,
            client=client,
            body=body,
            x_agent_identity=x_agent_identity,
            idempotency_key=idempotency_key,
        )
    ).parsed
