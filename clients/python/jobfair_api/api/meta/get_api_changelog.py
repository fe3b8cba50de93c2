from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.get_api_changelog_response_200 import GetApiChangelogResponse200
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/changelog",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | GetApiChangelogResponse200 | None:
    if response.status_code == 200:
        response_200 = GetApiChangelogResponse200.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 404:
        response_404 = Error.from_dict(response.json())

        return response_404

    if response.status_code == 503:
        response_503 = Error.from_dict(response.json())

        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Response[Error | GetApiChangelogResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | GetApiChangelogResponse200]:
    """The API changelog

     Every change to API v1, newest first (additive unless `kind` is `deprecated`). Each new entry is
    also announced once by the `changelog.api` webhook event. Cacheable for 5 minutes; send `If-None-
    Match` with the ETag to get 304 Not Modified.

    Public: no authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GetApiChangelogResponse200]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> Error | GetApiChangelogResponse200 | None:
    """The API changelog

     Every change to API v1, newest first (additive unless `kind` is `deprecated`). Each new entry is
    also announced once by the `changelog.api` webhook event. Cacheable for 5 minutes; send `If-None-
    Match` with the ETag to get 304 Not Modified.

    Public: no authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GetApiChangelogResponse200
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | GetApiChangelogResponse200]:
    """The API changelog

     Every change to API v1, newest first (additive unless `kind` is `deprecated`). Each new entry is
    also announced once by the `changelog.api` webhook event. Cacheable for 5 minutes; send `If-None-
    Match` with the ETag to get 304 Not Modified.

    Public: no authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GetApiChangelogResponse200]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> Error | GetApiChangelogResponse200 | None:
    """The API changelog

     Every change to API v1, newest first (additive unless `kind` is `deprecated`). Each new entry is
    also announced once by the `changelog.api` webhook event. Cacheable for 5 minutes; send `If-None-
    Match` with the ETag to get 304 Not Modified.

    Public: no authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GetApiChangelogResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
