from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.billing_charge import BillingCharge
from ...models.charge_billing_off_session_body import ChargeBillingOffSessionBody
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: ChargeBillingOffSessionBody,
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
        "url": "/api/v1/billing/charge-offsession",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> BillingCharge | Error | None:
    if response.status_code == 200:
        response_200 = BillingCharge.from_dict(response.json())

        return response_200

    if response.status_code == 400:
        response_400 = Error.from_dict(response.json())

        return response_400

    if response.status_code == 401:
        response_401 = Error.from_dict(response.json())

        return response_401

    if response.status_code == 402:
        response_402 = Error.from_dict(response.json())

        return response_402

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
) -> Response[BillingCharge | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: ChargeBillingOffSessionBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[BillingCharge | Error]:
    """Move to a plan by charging the saved payment method off-session

     Cost-bearing. Charges the team's consented payment method the price of `target_plan` for `interval`
    and starts a new period on that plan (no proration).
    - No prior one-time consent (no completed checkout) → 402 `OFF_SESSION_CONSENT_REQUIRED` with
    `details.target_plan`, `details.interval`, `details.checkout_url`.
    - The bank asks for authentication (SCA) → 402 `AUTHENTICATION_REQUIRED` with
    `details.authentication_url` for a human to open; the account is unchanged until they complete it.
    - Declined → 402 `CARD_DECLINED` with `details.decline_code`; nothing changes.
    - Already on that plan and interval → 409 `BILLING_ALREADY_ON_PLAN`. The provider unreachable → 503
    `DEPENDENCY_UNAVAILABLE` with Retry-After, nothing changed.
    Fired many times with one Idempotency-Key, it charges once (our charge id is also the provider's
    idempotency key). The payer is the caller's team (recruiters); a job seeker → 403
    `BILLING_NOT_FOR_SEEKERS`, a recruiter without a team → 403 `BILLING_TEAM_REQUIRED`.

    Scope: `billing:write`. Rate class: cost (3/min per token). Accepts `Idempotency-Key` (UUID v4).
    Identical calls by one token within 60 s get the first answer again without using quota.

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (ChargeBillingOffSessionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BillingCharge | Error]
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
    body: ChargeBillingOffSessionBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> BillingCharge | Error | None:
    """Move to a plan by charging the saved payment method off-session

     Cost-bearing. Charges the team's consented payment method the price of `target_plan` for `interval`
    and starts a new period on that plan (no proration).
    - No prior one-time consent (no completed checkout) → 402 `OFF_SESSION_CONSENT_REQUIRED` with
    `details.target_plan`, `details.interval`, `details.checkout_url`.
    - The bank asks for authentication (SCA) → 402 `AUTHENTICATION_REQUIRED` with
    `details.authentication_url` for a human to open; the account is unchanged until they complete it.
    - Declined → 402 `CARD_DECLINED` with `details.decline_code`; nothing changes.
    - Already on that plan and interval → 409 `BILLING_ALREADY_ON_PLAN`. The provider unreachable → 503
    `DEPENDENCY_UNAVAILABLE` with Retry-After, nothing changed.
    Fired many times with one Idempotency-Key, it charges once (our charge id is also the provider's
    idempotency key). The payer is the caller's team (recruiters); a job seeker → 403
    `BILLING_NOT_FOR_SEEKERS`, a recruiter without a team → 403 `BILLING_TEAM_REQUIRED`.

    Scope: `billing:write`. Rate class: cost (3/min per token). Accepts `Idempotency-Key` (UUID v4).
    Identical calls by one token within 60 s get the first answer again without using quota.

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (ChargeBillingOffSessionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BillingCharge | Error
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
    body: ChargeBillingOffSessionBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[BillingCharge | Error]:
    """Move to a plan by charging the saved payment method off-session

     Cost-bearing. Charges the team's consented payment method the price of `target_plan` for `interval`
    and starts a new period on that plan (no proration).
    - No prior one-time consent (no completed checkout) → 402 `OFF_SESSION_CONSENT_REQUIRED` with
    `details.target_plan`, `details.interval`, `details.checkout_url`.
    - The bank asks for authentication (SCA) → 402 `AUTHENTICATION_REQUIRED` with
    `details.authentication_url` for a human to open; the account is unchanged until they complete it.
    - Declined → 402 `CARD_DECLINED` with `details.decline_code`; nothing changes.
    - Already on that plan and interval → 409 `BILLING_ALREADY_ON_PLAN`. The provider unreachable → 503
    `DEPENDENCY_UNAVAILABLE` with Retry-After, nothing changed.
    Fired many times with one Idempotency-Key, it charges once (our charge id is also the provider's
    idempotency key). The payer is the caller's team (recruiters); a job seeker → 403
    `BILLING_NOT_FOR_SEEKERS`, a recruiter without a team → 403 `BILLING_TEAM_REQUIRED`.

    Scope: `billing:write`. Rate class: cost (3/min per token). Accepts `Idempotency-Key` (UUID v4).
    Identical calls by one token within 60 s get the first answer again without using quota.

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (ChargeBillingOffSessionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BillingCharge | Error]
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
    body: ChargeBillingOffSessionBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> BillingCharge | Error | None:
    """Move to a plan by charging the saved payment method off-session

     Cost-bearing. Charges the team's consented payment method the price of `target_plan` for `interval`
    and starts a new period on that plan (no proration).
    - No prior one-time consent (no completed checkout) → 402 `OFF_SESSION_CONSENT_REQUIRED` with
    `details.target_plan`, `details.interval`, `details.checkout_url`.
    - The bank asks for authentication (SCA) → 402 `AUTHENTICATION_REQUIRED` with
    `details.authentication_url` for a human to open; the account is unchanged until they complete it.
    - Declined → 402 `CARD_DECLINED` with `details.decline_code`; nothing changes.
    - Already on that plan and interval → 409 `BILLING_ALREADY_ON_PLAN`. The provider unreachable → 503
    `DEPENDENCY_UNAVAILABLE` with Retry-After, nothing changed.
    Fired many times with one Idempotency-Key, it charges once (our charge id is also the provider's
    idempotency key). The payer is the caller's team (recruiters); a job seeker → 403
    `BILLING_NOT_FOR_SEEKERS`, a recruiter without a team → 403 `BILLING_TEAM_REQUIRED`.

    Scope: `billing:write`. Rate class: cost (3/min per token). Accepts `Idempotency-Key` (UUID v4).
    Identical calls by one token within 60 s get the first answer again without using quota.

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (ChargeBillingOffSessionBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BillingCharge | Error
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_agent_identity=x_agent_identity,
            idempotency_key=idempotency_key,
        )
    ).parsed
