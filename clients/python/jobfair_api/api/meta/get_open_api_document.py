from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.get_open_api_document_response_200 import GetOpenApiDocumentResponse200
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/openapi.json",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | GetOpenApiDocumentResponse200 | None:
    if response.status_code == 200:
        response_200 = GetOpenApiDocumentResponse200.from_dict(response.json())

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
) -> Response[Error | GetOpenApiDocumentResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | GetOpenApiDocumentResponse200]:
    """This OpenAPI 3.1 document

     The canonical reference of the API, generated from the schemas that validate requests. `Cache-
    Control: public, max-age=3600, stale-while-revalidate=86400`; CORS open to every origin. Send `If-
    None-Match` with the ETag to get 304 Not Modified.

    Public: no authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GetOpenApiDocumentResponse200]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> Error | GetOpenApiDocumentResponse200 | None:
    """This OpenAPI 3.1 document

     The canonical reference of the API, generated from the schemas that validate requests. `Cache-
    Control: public, max-age=3600, stale-while-revalidate=86400`; CORS open to every origin. Send `If-
    None-Match` with the ETag to get 304 Not Modified.

    Public: no authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GetOpenApiDocumentResponse200
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | GetOpenApiDocumentResponse200]:
    """This OpenAPI 3.1 document

     The canonical reference of the API, generated from the schemas that validate requests. `Cache-
    Control: public, max-age=3600, stale-while-revalidate=86400`; CORS open to every origin. Send `If-
    None-Match` with the ETag to get 304 Not Modified.

    Public: no authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | GetOpenApiDocumentResponse200]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> Error | GetOpenApiDocumentResponse200 | None:
    """This OpenAPI 3.1 document

     The canonical reference of the API, generated from the schemas that validate requests. `Cache-
    Control: public, max-age=3600, stale-while-revalidate=86400`; CORS open to every origin. Send `If-
    None-Match` with the ETag to get 304 Not Modified.

    Public: no authentication.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | GetOpenApiDocumentResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
