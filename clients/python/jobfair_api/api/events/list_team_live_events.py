from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_team_live_events_response_200 import ListTeamLiveEventsResponse200
from ...models.list_team_live_events_status import ListTeamLiveEventsStatus
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    limit: int | Unset = 25,
    cursor: str | Unset = UNSET,
    status: ListTeamLiveEventsStatus | Unset = UNSET,
    x_agent_identity: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_agent_identity, Unset):
        headers["X-Agent-Identity"] = x_agent_identity

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["cursor"] = cursor

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/team/live-events",
        "params": params,
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | ListTeamLiveEventsResponse200 | None:
    if response.status_code == 200:
        response_200 = ListTeamLiveEventsResponse200.from_dict(response.json())

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
) -> Response[Error | ListTeamLiveEventsResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 25,
    cursor: str | Unset = UNSET,
    status: ListTeamLiveEventsStatus | Unset = UNSET,
    x_agent_identity: str | Unset = UNSET,
) -> Response[Error | ListTeamLiveEventsResponse200]:
    """The team's events, paginated

     Every status, newest first; optional `status` filter.

    Scope: `events:read`. Rate class: read (60/min per token).

    Args:
        limit (int | Unset):  Default: 25.
        cursor (str | Unset):
        status (ListTeamLiveEventsStatus | Unset):
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ListTeamLiveEventsResponse200]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
        status=status,
        x_agent_identity=x_agent_identity,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 25,
    cursor: str | Unset = UNSET,
    status: ListTeamLiveEventsStatus | Unset = UNSET,
    x_agent_identity: str | Unset = UNSET,
) -> Error | ListTeamLiveEventsResponse200 | None:
    """The team's events, paginated

     Every status, newest first; optional `status` filter.

    Scope: `events:read`. Rate class: read (60/min per token).

    Args:
        limit (int | Unset):  Default: 25.
        cursor (str | Unset):
        status (ListTeamLiveEventsStatus | Unset):
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ListTeamLiveEventsResponse200
    """

    return sync_detailed(
        client=client,
        limit=limit,
        cursor=cursor,
        status=status,
        x_agent_identity=x_agent_identity,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 25,
    cursor: str | Unset = UNSET,
    status: ListTeamLiveEventsStatus | Unset = UNSET,
    x_agent_identity: str | Unset = UNSET,
) -> Response[Error | ListTeamLiveEventsResponse200]:
    """The team's events, paginated

     Every status, newest first; optional `status` filter.

    Scope: `events:read`. Rate class: read (60/min per token).

    Args:
        limit (int | Unset):  Default: 25.
        cursor (str | Unset):
        status (ListTeamLiveEventsStatus | Unset):
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ListTeamLiveEventsResponse200]
    """

    kwargs = _get_kwargs(
        limit=limit,
        cursor=cursor,
        status=status,
        x_agent_identity=x_agent_identity,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 25,
    cursor: str | Unset = UNSET,
    status: ListTeamLiveEventsStatus | Unset = UNSET,
    x_agent_identity: str | Unset = UNSET,
) -> Error | ListTeamLiveEventsResponse200 | None:
    """The team's events, paginated

     Every status, newest first; optional `status` filter.

    Scope: `events:read`. Rate class: read (60/min per token).

    Args:
        limit (int | Unset):  Default: 25.
        cursor (str | Unset):
        status (ListTeamLiveEventsStatus | Unset):
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ListTeamLiveEventsResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
            limit=limit,
            cursor=cursor,
            status=status,
            x_agent_identity=x_agent_identity,
        )
    ).parsed
