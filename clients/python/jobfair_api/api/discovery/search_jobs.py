from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.search_jobs_remote import SearchJobsRemote
from ...models.search_jobs_response_200 import SearchJobsResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    skills: str | Unset = UNSET,
    remote: SearchJobsRemote | Unset = UNSET,
    location: str | Unset = UNSET,
    salary_min: str | Unset = UNSET,
    limit: str | Unset = UNSET,
) -> dict[str, Any]:

    params: dict[str, Any] = {}

    params["skills"] = skills

    json_remote: str | Unset = UNSET
    if not isinstance(remote, Unset):
        json_remote = remote.value

    params["remote"] = json_remote

    params["location"] = location

    params["salary_min"] = salary_min

    params["limit"] = limit

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/jobs/search",
        "params": params,
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | SearchJobsResponse200 | None:
    if response.status_code == 200:
        response_200 = SearchJobsResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

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
) -> Response[Error | SearchJobsResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    skills: str | Unset = UNSET,
    remote: SearchJobsRemote | Unset = UNSET,
    location: str | Unset = UNSET,
    salary_min: str | Unset = UNSET,
    limit: str | Unset = UNSET,
) -> Response[Error | SearchJobsResponse200]:
    """Search open jobs of live open-invite events

     Only open jobs whose event is `live` (not paused) and open-invite. Filters combine with AND. Order:
    number of requested skills the job lists (essential or bonus) descending, then newest first. Unknown
    parameters → 400 VALIDATION naming them. Cached about 30 s, keyed on the normalised parameters.

    Public: no authentication. Rate class: public (300/min per client IP).

    Args:
        skills (str | Unset):
        remote (SearchJobsRemote | Unset):
        location (str | Unset):
        salary_min (str | Unset):
        limit (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SearchJobsResponse200]
    """

    kwargs = _get_kwargs(
        skills=skills,
        remote=remote,
        location=location,
        salary_min=salary_min,
        limit=limit,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
    skills: str | Unset = UNSET,
    remote: SearchJobsRemote | Unset = UNSET,
    location: str | Unset = UNSET,
    salary_min: str | Unset = UNSET,
    limit: str | Unset = UNSET,
) -> Error | SearchJobsResponse200 | None:
    """Search open jobs of live open-invite events

     Only open jobs whose event is `live` (not paused) and open-invite. Filters combine with AND. Order:
    number of requested skills the job lists (essential or bonus) descending, then newest first. Unknown
    parameters → 400 VALIDATION naming them. Cached about 30 s, keyed on the normalised parameters.

    Public: no authentication. Rate class: public (300/min per client IP).

    Args:
        skills (str | Unset):
        remote (SearchJobsRemote | Unset):
        location (str | Unset):
        salary_min (str | Unset):
        limit (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SearchJobsResponse200
    """

    return sync_detailed(
        client=client,
        skills=skills,
        remote=remote,
        location=location,
        salary_min=salary_min,
        limit=limit,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    skills: str | Unset = UNSET,
    remote: SearchJobsRemote | Unset = UNSET,
    location: str | Unset = UNSET,
    salary_min: str | Unset = UNSET,
    limit: str | Unset = UNSET,
) -> Response[Error | SearchJobsResponse200]:
    """Search open jobs of live open-invite events

     Only open jobs whose event is `live` (not paused) and open-invite. Filters combine with AND. Order:
    number of requested skills the job lists (essential or bonus) descending, then newest first. Unknown
    parameters → 400 VALIDATION naming them. Cached about 30 s, keyed on the normalised parameters.

    Public: no authentication. Rate class: public (300/min per client IP).

    Args:
        skills (str | Unset):
        remote (SearchJobsRemote | Unset):
        location (str | Unset):
        salary_min (str | Unset):
        limit (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | SearchJobsResponse200]
    """

    kwargs = _get_kwargs(
        skills=skills,
        remote=remote,
        location=location,
        salary_min=salary_min,
        limit=limit,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    skills: str | Unset = UNSET,
    remote: SearchJobsRemote | Unset = UNSET,
    location: str | Unset = UNSET,
    salary_min: str | Unset = UNSET,
    limit: str | Unset = UNSET,
) -> Error | SearchJobsResponse200 | None:
    """Search open jobs of live open-invite events

     Only open jobs whose event is `live` (not paused) and open-invite. Filters combine with AND. Order:
    number of requested skills the job lists (essential or bonus) descending, then newest first. Unknown
    parameters → 400 VALIDATION naming them. Cached about 30 s, keyed on the normalised parameters.

    Public: no authentication. Rate class: public (300/min per client IP).

    Args:
        skills (str | Unset):
        remote (SearchJobsRemote | Unset):
        location (str | Unset):
        salary_min (str | Unset):
        limit (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | SearchJobsResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
            skills=skills,
            remote=remote,
            location=location,
            salary_min=salary_min,
            limit=limit,
        )
    ).parsed
