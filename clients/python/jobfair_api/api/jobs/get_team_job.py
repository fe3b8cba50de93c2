from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.get_team_job_response_200 import GetTeamJobResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    job_id: UUID,
    *,
    x_agent_identity: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_agent_identity, Unset):
        headers["X-Agent-Identity"] = x_agent_identity

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/jobs/{job_id}".format(
            job_id=quote(str(job_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | GetTeamJobResponse200 | None:
    if response.status_code == 200:
        response_200 = GetTeamJobResponse200.from_dict(response.json())

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
) -> Response[Error | GetTeamJobResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    job_id: UUID,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
) -> Response[Error | GetTeamJobResponse200]:
    """One of the team's jobs

     Another team's job → 404.

    Scope: `jobs:read`. Rate class: read (60/min per token).

    Args:
        job_id (UUID):
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GetTeamJobResponse200]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
        x_agent_identity=x_agent_identity,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job_id: UUID,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
) -> Error | GetTeamJobResponse200 | None:
    """One of the team's jobs

     Another team's job → 404.

    Scope: `jobs:read`. Rate class: read (60/min per token).

    Args:
        job_id (UUID):
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GetTeamJobResponse200
    """

    return sync_detailed(
        job_id=job_id,
        client=client,
        x_agent_identity=x_agent_identity,
    ).parsed


async def asyncio_detailed(
    job_id: UUID,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
) -> Response[Error | GetTeamJobResponse200]:
    """One of the team's jobs

     Another team's job → 404.

    Scope: `jobs:read`. Rate class: read (60/min per token).

    Args:
        job_id (UUID):
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GetTeamJobResponse200]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
        x_agent_identity=x_agent_identity,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job_id: UUID,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
) -> Error | GetTeamJobResponse200 | None:
    """One of the team's jobs

     Another team's job → 404.

    Scope: `jobs:read`. Rate class: read (60/min per token).

    Args:
        job_id (UUID):
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GetTeamJobResponse200
    """

    return (
        await asyncio_detailed(
            job_id=job_id,
            client=client,
            x_agent_identity=x_agent_identity,
        )
    ).parsed
