from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.get_public_event_response_200 import GetPublicEventResponse200
from ...types import Response


def _get_kwargs(
    slug: str,
) -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/events/{slug}".format(
            slug=quote(str(slug), safe=""),
        ),
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | GetPublicEventResponse200 | None:
    if response.status_code == 200:
        response_200 = GetPublicEventResponse200.from_dict(response.json())

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
) -> Response[Error | GetPublicEventResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    slug: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | GetPublicEventResponse200]:
    """One open-invite event and its open jobs

     Only open-invite events that are `live` or `paused`; draft, ended, private and unknown events are
    all 404 NOT_FOUND (existence is not leaked). Jobs: open jobs, newest first (at most 200).

    Public: no authentication. Rate class: public (300/min per client IP).

    Args:
        slug (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GetPublicEventResponse200]
    """

    kwargs = _get_kwargs(
        slug=slug,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    slug: str,
    *,
    client: AuthenticatedClient | Client,
) -> Error | GetPublicEventResponse200 | None:
    """One open-invite event and its open jobs

     Only open-invite events that are `live` or `paused`; draft, ended, private and unknown events are
    all 404 NOT_FOUND (existence is not leaked). Jobs: open jobs, newest first (at most 200).

    Public: no authentication. Rate class: public (300/min per client IP).

    Args:
        slug (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GetPublicEventResponse200
    """

    return sync_detailed(
        slug=slug,
        client=client,
    ).parsed


async def asyncio_detailed(
    slug: str,
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | GetPublicEventResponse200]:
    """One open-invite event and its open jobs

     Only open-invite events that are `live` or `paused`; draft, ended, private and unknown events are
    all 404 NOT_FOUND (existence is not leaked). Jobs: open jobs, newest first (at most 200).

    Public: no authentication. Rate class: public (300/min per client IP).

    Args:
        slug (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GetPublicEventResponse200]
    """

    kwargs = _get_kwargs(
        slug=slug,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    slug: str,
    *,
    client: AuthenticatedClient | Client,
) -> Error | GetPublicEventResponse200 | None:
    """One open-invite event and its open jobs

     Only open-invite events that are `live` or `paused`; draft, ended, private and unknown events are
    all 404 NOT_FOUND (existence is not leaked). Jobs: open jobs, newest first (at most 200).

    Public: no authentication. Rate class: public (300/min per client IP).

    Args:
        slug (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GetPublicEventResponse200
    """

    return (
        await asyncio_detailed(
            slug=slug,
            client=client,
        )
    ).parsed
