from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.list_billing_plans_response_200 import ListBillingPlansResponse200
from ...types import Response


def _get_kwargs() -> dict[str, Any]:

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/billing/plans",
    }

    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | ListBillingPlansResponse200 | None:
    if response.status_code == 200:
        response_200 = ListBillingPlansResponse200.from_dict(response.json())

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
) -> Response[Error | ListBillingPlansResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | ListBillingPlansResponse200]:
    """The plan catalogue: prices and what each plan buys

     Public. `free` is where every team starts (one live event at once); the limits are enforced (over a
    limit → 402 `PLAN_LIMIT_REACHED` naming the plan).

    Public: no authentication. Rate class: public (300/min per client IP).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ListBillingPlansResponse200]
    """

    kwargs = _get_kwargs()

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient | Client,
) -> Error | ListBillingPlansResponse200 | None:
    """The plan catalogue: prices and what each plan buys

     Public. `free` is where every team starts (one live event at once); the limits are enforced (over a
    limit → 402 `PLAN_LIMIT_REACHED` naming the plan).

    Public: no authentication. Rate class: public (300/min per client IP).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ListBillingPlansResponse200
    """

    return sync_detailed(
        client=client,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
) -> Response[Error | ListBillingPlansResponse200]:
    """The plan catalogue: prices and what each plan buys

     Public. `free` is where every team starts (one live event at once); the limits are enforced (over a
    limit → 402 `PLAN_LIMIT_REACHED` naming the plan).

    Public: no authentication. Rate class: public (300/min per client IP).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | ListBillingPlansResponse200]
    """

    kwargs = _get_kwargs()

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient | Client,
) -> Error | ListBillingPlansResponse200 | None:
    """The plan catalogue: prices and what each plan buys

     Public. `free` is where every team starts (one live event at once); the limits are enforced (over a
    limit → 402 `PLAN_LIMIT_REACHED` naming the plan).

    Public: no authentication. Rate class: public (300/min per client IP).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | ListBillingPlansResponse200
    """

    return (
        await asyncio_detailed(
            client=client,
        )
    ).parsed
