from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.job_update_input import JobUpdateInput
from ...models.update_team_job_response_200 import UpdateTeamJobResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    job_id: UUID,
    *,
    body: JobUpdateInput,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_agent_identity, Unset):
        headers["X-Agent-Identity"] = x_agent_identity

    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "patch",
        "url": "/api/v1/jobs/{job_id}".format(
            job_id=quote(str(job_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | UpdateTeamJobResponse200 | None:
    if response.status_code == 200:
        response_200 = UpdateTeamJobResponse200.from_dict(response.json())

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
) -> Response[Error | UpdateTeamJobResponse200]:
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
    body: JobUpdateInput,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | UpdateTeamJobResponse200]:
    """Edit a job

     A closed job → 409 JOB_CLOSED. The salary range is checked against the stored values (400
    VALIDATION).

    Scope: `jobs:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        job_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (JobUpdateInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | UpdateTeamJobResponse200]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job_id: UUID,
    *,
    client: AuthenticatedClient,
    body: JobUpdateInput,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | UpdateTeamJobResponse200 | None:
    """Edit a job

     A closed job → 409 JOB_CLOSED. The salary range is checked against the stored values (400
    VALIDATION).

    Scope: `jobs:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        job_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (JobUpdateInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | UpdateTeamJobResponse200
    """

    return sync_detailed(
        job_id=job_id,
        client=client,
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    job_id: UUID,
    *,
    client: AuthenticatedClient,
    body: JobUpdateInput,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | UpdateTeamJobResponse200]:
    """Edit a job

     A closed job → 409 JOB_CLOSED. The salary range is checked against the stored values (400
    VALIDATION).

    Scope: `jobs:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        job_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (JobUpdateInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | UpdateTeamJobResponse200]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job_id: UUID,
    *,
    client: AuthenticatedClient,
    body: JobUpdateInput,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | UpdateTeamJobResponse200 | None:
    """Edit a job

     A closed job → 409 JOB_CLOSED. The salary range is checked against the stored values (400
    VALIDATION).

    Scope: `jobs:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        job_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (JobUpdateInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | UpdateTeamJobResponse200
    """

    return (
        await asyncio_detailed(
            job_id=job_id,
            client=client,
            body=body,
            x_agent_identity=x_agent_identity,
            idempotency_key=idempotency_key,
        )
    ).parsed
