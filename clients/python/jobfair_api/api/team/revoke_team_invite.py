from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.revoke_team_invite_response_200 import RevokeTeamInviteResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    invite_id: UUID,
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
        "method": "delete",
        "url": "/api/v1/team/invites/{invite_id}".format(
            invite_id=quote(str(invite_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | RevokeTeamInviteResponse200 | None:
    if response.status_code == 200:
        response_200 = RevokeTeamInviteResponse200.from_dict(response.json())

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
) -> Response[Error | RevokeTeamInviteResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    invite_id: UUID,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | RevokeTeamInviteResponse200]:
    """Revoke an invite

     The link stops working. Already revoked → 200 unchanged; accepted → 409 INVITE_ALREADY_ACCEPTED.

    Scope: `settings:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        invite_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RevokeTeamInviteResponse200]
    """

    kwargs = _get_kwargs(
        invite_id=invite_id,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    invite_id: UUID,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | RevokeTeamInviteResponse200 | None:
    """Revoke an invite

     The link stops working. Already revoked → 200 unchanged; accepted → 409 INVITE_ALREADY_ACCEPTED.

    Scope: `settings:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        invite_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RevokeTeamInviteResponse200
    """

    return sync_detailed(
        invite_id=invite_id,
        client=client,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    invite_id: UUID,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | RevokeTeamInviteResponse200]:
    """Revoke an invite

     The link stops working. Already revoked → 200 unchanged; accepted → 409 INVITE_ALREADY_ACCEPTED.

    Scope: `settings:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        invite_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | RevokeTeamInviteResponse200]
    """

    kwargs = _get_kwargs(
        invite_id=invite_id,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    invite_id: UUID,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | RevokeTeamInviteResponse200 | None:
    """Revoke an invite

     The link stops working. Already revoked → 200 unchanged; accepted → 409 INVITE_ALREADY_ACCEPTED.

    Scope: `settings:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        invite_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | RevokeTeamInviteResponse200
    """

    return (
        await asyncio_detailed(
            invite_id=invite_id,
            client=client,
            x_agent_identity=x_agent_identity,
            idempotency_key=idempotency_key,
        )
    ).parsed
