from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.billing_checkout import BillingCheckout
from ...models.create_billing_checkout_body import CreateBillingCheckoutBody
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CreateBillingCheckoutBody,
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
        "url": "/api/v1/billing/checkout",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> BillingCheckout | Error | None:
    if response.status_code == 201:
        response_201 = BillingCheckout.from_dict(response.json())

        return response_201

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
) -> Response[BillingCheckout | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateBillingCheckoutBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[BillingCheckout | Error]:
    """Start a checkout for a plan (hosted page or embedded form)

     A human pays once in the browser; the payment method is saved with `setup_future_usage=off_session`,
    which records the team's one-time consent to off-session charges (POST /billing/charge-offsession).
    `mode: "hosted"` answers a `url` to open; `mode: "embedded"` answers a `client_secret` for the
    embedded form. The plan changes when the provider reports the payment (Stripe:
    `checkout.session.completed` at POST /stripe/webhook). Team owners and admins only (else 403
    `BILLING_OWNER_REQUIRED`). The payer is the caller's team (recruiters); a job seeker → 403
    `BILLING_NOT_FOR_SEEKERS`, a recruiter without a team → 403 `BILLING_TEAM_REQUIRED`.

    Scope: `billing:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (CreateBillingCheckoutBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BillingCheckout | Error]
    """

    kwargs = _get_kwargs(
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    *,
    client: AuthenticatedClient,
    body: CreateBillingCheckoutBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> BillingCheckout | Error | None:
    """Start a checkout for a plan (hosted page or embedded form)

     A human pays once in the browser; the payment method is saved with `setup_future_usage=off_session`,
    which records the team's one-time consent to off-session charges (POST /billing/charge-offsession).
    `mode: "hosted"` answers a `url` to open; `mode: "embedded"` answers a `client_secret` for the
    embedded form. The plan changes when the provider reports the payment (Stripe:
    `checkout.session.completed` at POST /stripe/webhook). Team owners and admins only (else 403
    `BILLING_OWNER_REQUIRED`). The payer is the caller's team (recruiters); a job seeker → 403
    `BILLING_NOT_FOR_SEEKERS`, a recruiter without a team → 403 `BILLING_TEAM_REQUIRED`.

    Scope: `billing:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (CreateBillingCheckoutBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BillingCheckout | Error
    """

    return sync_detailed(
        client=client,
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateBillingCheckoutBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[BillingCheckout | Error]:
    """Start a checkout for a plan (hosted page or embedded form)

     A human pays once in the browser; the payment method is saved with `setup_future_usage=off_session`,
    which records the team's one-time consent to off-session charges (POST /billing/charge-offsession).
    `mode: "hosted"` answers a `url` to open; `mode: "embedded"` answers a `client_secret` for the
    embedded form. The plan changes when the provider reports the payment (Stripe:
    `checkout.session.completed` at POST /stripe/webhook). Team owners and admins only (else 403
    `BILLING_OWNER_REQUIRED`). The payer is the caller's team (recruiters); a job seeker → 403
    `BILLING_NOT_FOR_SEEKERS`, a recruiter without a team → 403 `BILLING_TEAM_REQUIRED`.

    Scope: `billing:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (CreateBillingCheckoutBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BillingCheckout | Error]
    """

    kwargs = _get_kwargs(
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateBillingCheckoutBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> BillingCheckout | Error | None:
    """Start a checkout for a plan (hosted page or embedded form)

     A human pays once in the browser; the payment method is saved with `setup_future_usage=off_session`,
    which records the team's one-time consent to off-session charges (POST /billing/charge-offsession).
    `mode: "hosted"` answers a `url` to open; `mode: "embedded"` answers a `client_secret` for the
    embedded form. The plan changes when the provider reports the payment (Stripe:
    `checkout.session.completed` at POST /stripe/webhook). Team owners and admins only (else 403
    `BILLING_OWNER_REQUIRED`). The payer is the caller's team (recruiters); a job seeker → 403
    `BILLING_NOT_FOR_SEEKERS`, a recruiter without a team → 403 `BILLING_TEAM_REQUIRED`.

    Scope: `billing:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (CreateBillingCheckoutBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BillingCheckout | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_agent_identity=x_agent_identity,
            idempotency_key=idempotency_key,
        )
    ).parsed
