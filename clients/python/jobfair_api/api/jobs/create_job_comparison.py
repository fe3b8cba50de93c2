from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_job_comparison_response_200 import CreateJobComparisonResponse200
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    job_id: str,
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
        "url": "/api/v1/jobs/{job_id}/comparison".format(
            job_id=quote(str(job_id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> CreateJobComparisonResponse200 | Error | None:
    if response.status_code == 200:
        response_200 = CreateJobComparisonResponse200.from_dict(response.json())

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
) -> Response[CreateJobComparisonResponse200 | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    job_id: str,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[CreateJobComparisonResponse200 | Error]:
    """How the caller's profile compares with a job: strengths, gaps, talking points

     For job seekers (others → 403 ROLE_NOT_ALLOWED; no profile → 409 ONBOARDING_INCOMPLETE) and open
    jobs of live or paused public events (else 404). No body; nothing is stored. With an AI provider
    configured the words come from that model (validated against a strict schema); without one from the
    explainable scorer (`provider: "builtin"`). Provider down or answering outside the schema → 503
    DEPENDENCY_UNAVAILABLE with Retry-After.

    Scope: `jobs:read`. Rate class: cost (3/min per token). Accepts `Idempotency-Key` (UUID v4).
    Identical calls by one token within 60 s get the first answer again without using quota.

    Args:
        job_id (str):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateJobComparisonResponse200 | Error]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    job_id: str,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> CreateJobComparisonResponse200 | Error | None:
    """How the caller's profile compares with a job: strengths, gaps, talking points

     For job seekers (others → 403 ROLE_NOT_ALLOWED; no profile → 409 ONBOARDING_INCOMPLETE) and open
    jobs of live or paused public events (else 404). No body; nothing is stored. With an AI provider
    configured the words come from that model (validated against a strict schema); without one from the
    explainable scorer (`provider: "builtin"`). Provider down or answering outside the schema → 503
    DEPENDENCY_UNAVAILABLE with Retry-After.

    Scope: `jobs:read`. Rate class: cost (3/min per token). Accepts `Idempotency-Key` (UUID v4).
    Identical calls by one token within 60 s get the first answer again without using quota.

    Args:
        job_id (str):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateJobComparisonResponse200 | Error
    """

    return sync_detailed(
        job_id=job_id,
        client=client,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    job_id: str,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[CreateJobComparisonResponse200 | Error]:
    """How the caller's profile compares with a job: strengths, gaps, talking points

     For job seekers (others → 403 ROLE_NOT_ALLOWED; no profile → 409 ONBOARDING_INCOMPLETE) and open
    jobs of live or paused public events (else 404). No body; nothing is stored. With an AI provider
    configured the words come from that model (validated against a strict schema); without one from the
    explainable scorer (`provider: "builtin"`). Provider down or answering outside the schema → 503
    DEPENDENCY_UNAVAILABLE with Retry-After.

    Scope: `jobs:read`. Rate class: cost (3/min per token). Accepts `Idempotency-Key` (UUID v4).
    Identical calls by one token within 60 s get the first answer again without using quota.

    Args:
        job_id (str):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CreateJobComparisonResponse200 | Error]
    """

    kwargs = _get_kwargs(
        job_id=job_id,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    job_id: str,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> CreateJobComparisonResponse200 | Error | None:
    """How the caller's profile compares with a job: strengths, gaps, talking points

     For job seekers (others → 403 ROLE_NOT_ALLOWED; no profile → 409 ONBOARDING_INCOMPLETE) and open
    jobs of live or paused public events (else 404). No body; nothing is stored. With an AI provider
    configured the words come from that model (validated against a strict schema); without one from the
    explainable scorer (`provider: "builtin"`). Provider down or answering outside the schema → 503
    DEPENDENCY_UNAVAILABLE with Retry-After.

    Scope: `jobs:read`. Rate class: cost (3/min per token). Accepts `Idempotency-Key` (UUID v4).
    Identical calls by one token within 60 s get the first answer again without using quota.

    Args:
        job_id (str):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CreateJobComparisonResponse200 | Error
    """

    return (
        await asyncio_detailed(
            job_id=job_id,
            client=client,
            x_agent_identity=x_agent_identity,
            idempotency_key=idempotency_key,
        )
    ).parsed
