from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.get_event_matching_settings_response_200 import (
    GetEventMatchingSettingsResponse200,
)
from ...types import UNSET, Response, Unset


def _get_kwargs(
    event_id: UUID,
    *,
    x_agent_identity: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_agent_identity, Unset):
        headers["X-Agent-Identity"] = x_agent_identity

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/team/live-events/{event_id}/matching".format(
            event_id=quote(str(event_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | GetEventMatchingSettingsResponse200 | None:
    if response.status_code == 200:
        response_200 = GetEventMatchingSettingsResponse200.from_dict(response.json())

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
) -> Response[Error | GetEventMatchingSettingsResponse200]:
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
) -> Response[Error | GetEventMatchingSettingsResponse200]:
    """An event's matching settings: recruiter availability and the quality floor

     Another team's event → 404.

    Scope: `events:read`. Rate class: read (60/min per token).

    Args:
        event_id (UUID):
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GetEventMatchingSettingsResponse200]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
        x_agent_identity=x_agent_identity,
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
) -> Error | GetEventMatchingSettingsResponse200 | None:
    """An event's matching settings: recruiter availability and the quality floor

     Another team's event → 404.

    Scope: `events:read`. Rate class: read (60/min per token).

    Args:
        event_id (UUID):
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GetEventMatchingSettingsResponse200
    """

    return sync_detailed(
        event_id=event_id,
        client=client,
        x_agent_identity=x_agent_identity,
    ).parsed


async def asyncio_detailed(
    event_id: UUID,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
) -> Response[Error | GetEventMatchingSettingsResponse200]:
    """An event's matching settings: recruiter availability and the quality floor

     Another team's event → 404.

    Scope: `events:read`. Rate class: read (60/min per token).

    Args:
        event_id (UUID):
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GetEventMatchingSettingsResponse200]
    """

    kwargs = _get_kwargs(
        event_id=event_id,
        x_agent_identity=x_agent_identity,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    event_id: UUID,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
) -> Error | GetEventMatchingSettingsResponse200 | None:
    """An event's matching settings: recruiter availability and the quality floor

     Another team's event → 404.

    Scope: `events:read`. Rate class: read (60/min per token).

    Args:
        event_id (UUID):
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GetEventMatchingSettingsResponse200
    """

    return (
        await asyncio_detailed(
            event_id=event_id,
            client=client,
            x_agent_identity=x_agent_identity,
        )
    ).parsed
