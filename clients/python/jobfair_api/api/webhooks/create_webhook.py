from http import HTTPStatus
from typing import Any

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.create_webhook_body import CreateWebhookBody
from ...models.error import Error
from ...models.webhook_subscription_created import WebhookSubscriptionCreated
from ...types import UNSET, Response, Unset


def _get_kwargs(
    *,
    body: CreateWebhookBody,
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
        "url": "/api/v1/webhooks",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | WebhookSubscriptionCreated | None:
    if response.status_code == 201:
        response_201 = WebhookSubscriptionCreated.from_dict(response.json())

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
) -> Response[Error | WebhookSubscriptionCreated]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateWebhookBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | WebhookSubscriptionCreated]:
    """Subscribe a URL to events

     Returns the subscription with its `secret` (`svc_whsec_…`), shown this once. Subscriptions belong to
    the caller's team when the caller is a recruiter with a team, otherwise to the caller; another
    owner's subscription answers 404. With `Idempotency-Key`, a retried create returns the same
    subscription and secret; that stored answer is sealed (AES-256-GCM under the server key) for the 24
    h window, never kept in plain text.

    Event types and their `data`:
    - `match.matched`: a match is made: team subscriptions of the job's team (recruiters with a team
    subscribe as the team), user subscriptions of the seeker; data { match_id, role_title,
    seeker_headline }
    - `match.accepted`: both sides of a match accepted it in the web application; data { match_id,
    job_id, role_title, live_event_slug, accepted_at, recruiter_auto_accepted, recruiter_user_id (the
    interviewer: whoever of the team accepted; null if unknown) }
    - `interview.completed`: the interview of an accepted match has ended; data { match_id, job_id,
    role_title, live_event_slug, completed_at, ended_by: 'seeker' | 'recruiter' | 'time_limit',
    started_at (when both people were first in the interview room, which starts the interview clock; the
    acceptance when they never met there, e.g. a hosted video provider; null if unknown),
    duration_seconds (from started_at; null if unknown) }; the recruiter's report card is never in it
    - `match.no_show`: an accepted match ended without an interview: the seeker, the recruiter or both
    did not come to the interview room within MATCH_NO_SHOW_GRACE_MS of acceptance (never also
    interview.completed); data { match_id, job_id, role_title, live_event_slug, accepted_at, no_show_at,
    missing: 'seeker' | 'recruiter' | 'both' (who did not come) }
    - `changelog.api`: an entry is added to the API changelog (sent to every subscription of this type);
    data { entry_id, date, kind, title, description, changelog_url }
    - `webhook.test`: POST /webhooks/{id}/test (only to that subscription; always delivered to it,
    whether or not it lists this type); data { webhook_id, message: "This is a test event from Job
    Fair.", test: true }

    Delivery: POST of the envelope `{ id: evt_…, type, created_at (Unix s), data }` with headers `Svc-
    Signature: t=<unix>,v1=<hex>` (HMAC-SHA256 of `<t>.<raw body>` keyed with the secret; a second `v1=`
    while a rotated secret is still valid), `Svc-Event`, `Svc-Delivery-Id` (`dlv_`, one per attempt),
    `Svc-Subscription-Id`, `Content-Type: application/json`. Success = 2xx within 10 s; redirects are
    not followed; retries after 30 s, 5 min, 30 min, 6 h, 24 h, then dead letter; 25 consecutive
    failures pause the subscription (e-mail to the owner). Bodies over 64 KB are not delivered
    (`oversize`).

    Scope: `webhooks:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (CreateWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookSubscriptionCreated]
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
    body: CreateWebhookBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | WebhookSubscriptionCreated | None:
    """Subscribe a URL to events

     Returns the subscription with its `secret` (`svc_whsec_…`), shown this once. Subscriptions belong to
    the caller's team when the caller is a recruiter with a team, otherwise to the caller; another
    owner's subscription answers 404. With `Idempotency-Key`, a retried create returns the same
    subscription and secret; that stored answer is sealed (AES-256-GCM under the server key) for the 24
    h window, never kept in plain text.

    Event types and their `data`:
    - `match.matched`: a match is made: team subscriptions of the job's team (recruiters with a team
    subscribe as the team), user subscriptions of the seeker; data { match_id, role_title,
    seeker_headline }
    - `match.accepted`: both sides of a match accepted it in the web application; data { match_id,
    job_id, role_title, live_event_slug, accepted_at, recruiter_auto_accepted, recruiter_user_id (the
    interviewer: whoever of the team accepted; null if unknown) }
    - `interview.completed`: the interview of an accepted match has ended; data { match_id, job_id,
    role_title, live_event_slug, completed_at, ended_by: 'seeker' | 'recruiter' | 'time_limit',
    started_at (when both people were first in the interview room, which starts the interview clock; the
    acceptance when they never met there, e.g. a hosted video provider; null if unknown),
    duration_seconds (from started_at; null if unknown) }; the recruiter's report card is never in it
    - `match.no_show`: an accepted match ended without an interview: the seeker, the recruiter or both
    did not come to the interview room within MATCH_NO_SHOW_GRACE_MS of acceptance (never also
    interview.completed); data { match_id, job_id, role_title, live_event_slug, accepted_at, no_show_at,
    missing: 'seeker' | 'recruiter' | 'both' (who did not come) }
    - `changelog.api`: an entry is added to the API changelog (sent to every subscription of this type);
    data { entry_id, date, kind, title, description, changelog_url }
    - `webhook.test`: POST /webhooks/{id}/test (only to that subscription; always delivered to it,
    whether or not it lists this type); data { webhook_id, message: "This is a test event from Job
    Fair.", test: true }

    Delivery: POST of the envelope `{ id: evt_…, type, created_at (Unix s), data }` with headers `Svc-
    Signature: t=<unix>,v1=<hex>` (HMAC-SHA256 of `<t>.<raw body>` keyed with the secret; a second `v1=`
    while a rotated secret is still valid), `Svc-Event`, `Svc-Delivery-Id` (`dlv_`, one per attempt),
    `Svc-Subscription-Id`, `Content-Type: application/json`. Success = 2xx within 10 s; redirects are
    not followed; retries after 30 s, 5 min, 30 min, 6 h, 24 h, then dead letter; 25 consecutive
    failures pause the subscription (e-mail to the owner). Bodies over 64 KB are not delivered
    (`oversize`).

    Scope: `webhooks:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (CreateWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookSubscriptionCreated
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
    body: CreateWebhookBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | WebhookSubscriptionCreated]:
    """Subscribe a URL to events

     Returns the subscription with its `secret` (`svc_whsec_…`), shown this once. Subscriptions belong to
    the caller's team when the caller is a recruiter with a team, otherwise to the caller; another
    owner's subscription answers 404. With `Idempotency-Key`, a retried create returns the same
    subscription and secret; that stored answer is sealed (AES-256-GCM under the server key) for the 24
    h window, never kept in plain text.

    Event types and their `data`:
    - `match.matched`: a match is made: team subscriptions of the job's team (recruiters with a team
    subscribe as the team), user subscriptions of the seeker; data { match_id, role_title,
    seeker_headline }
    - `match.accepted`: both sides of a match accepted it in the web application; data { match_id,
    job_id, role_title, live_event_slug, accepted_at, recruiter_auto_accepted, recruiter_user_id (the
    interviewer: whoever of the team accepted; null if unknown) }
    - `interview.completed`: the interview of an accepted match has ended; data { match_id, job_id,
    role_title, live_event_slug, completed_at, ended_by: 'seeker' | 'recruiter' | 'time_limit',
    started_at (when both people were first in the interview room, which starts the interview clock; the
    acceptance when they never met there, e.g. a hosted video provider; null if unknown),
    duration_seconds (from started_at; null if unknown) }; the recruiter's report card is never in it
    - `match.no_show`: an accepted match ended without an interview: the seeker, the recruiter or both
    did not come to the interview room within MATCH_NO_SHOW_GRACE_MS of acceptance (never also
    interview.completed); data { match_id, job_id, role_title, live_event_slug, accepted_at, no_show_at,
    missing: 'seeker' | 'recruiter' | 'both' (who did not come) }
    - `changelog.api`: an entry is added to the API changelog (sent to every subscription of this type);
    data { entry_id, date, kind, title, description, changelog_url }
    - `webhook.test`: POST /webhooks/{id}/test (only to that subscription; always delivered to it,
    whether or not it lists this type); data { webhook_id, message: "This is a test event from Job
    Fair.", test: true }

    Delivery: POST of the envelope `{ id: evt_…, type, created_at (Unix s), data }` with headers `Svc-
    Signature: t=<unix>,v1=<hex>` (HMAC-SHA256 of `<t>.<raw body>` keyed with the secret; a second `v1=`
    while a rotated secret is still valid), `Svc-Event`, `Svc-Delivery-Id` (`dlv_`, one per attempt),
    `Svc-Subscription-Id`, `Content-Type: application/json`. Success = 2xx within 10 s; redirects are
    not followed; retries after 30 s, 5 min, 30 min, 6 h, 24 h, then dead letter; 25 consecutive
    failures pause the subscription (e-mail to the owner). Bodies over 64 KB are not delivered
    (`oversize`).

    Scope: `webhooks:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (CreateWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookSubscriptionCreated]
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
    body: CreateWebhookBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | WebhookSubscriptionCreated | None:
    """Subscribe a URL to events

     Returns the subscription with its `secret` (`svc_whsec_…`), shown this once. Subscriptions belong to
    the caller's team when the caller is a recruiter with a team, otherwise to the caller; another
    owner's subscription answers 404. With `Idempotency-Key`, a retried create returns the same
    subscription and secret; that stored answer is sealed (AES-256-GCM under the server key) for the 24
    h window, never kept in plain text.

    Event types and their `data`:
    - `match.matched`: a match is made: team subscriptions of the job's team (recruiters with a team
    subscribe as the team), user subscriptions of the seeker; data { match_id, role_title,
    seeker_headline }
    - `match.accepted`: both sides of a match accepted it in the web application; data { match_id,
    job_id, role_title, live_event_slug, accepted_at, recruiter_auto_accepted, recruiter_user_id (the
    interviewer: whoever of the team accepted; null if unknown) }
    - `interview.completed`: the interview of an accepted match has ended; data { match_id, job_id,
    role_title, live_event_slug, completed_at, ended_by: 'seeker' | 'recruiter' | 'time_limit',
    started_at (when both people were first in the interview room, which starts the interview clock; the
    acceptance when they never met there, e.g. a hosted video provider; null if unknown),
    duration_seconds (from started_at; null if unknown) }; the recruiter's report card is never in it
    - `match.no_show`: an accepted match ended without an interview: the seeker, the recruiter or both
    did not come to the interview room within MATCH_NO_SHOW_GRACE_MS of acceptance (never also
    interview.completed); data { match_id, job_id, role_title, live_event_slug, accepted_at, no_show_at,
    missing: 'seeker' | 'recruiter' | 'both' (who did not come) }
    - `changelog.api`: an entry is added to the API changelog (sent to every subscription of this type);
    data { entry_id, date, kind, title, description, changelog_url }
    - `webhook.test`: POST /webhooks/{id}/test (only to that subscription; always delivered to it,
    whether or not it lists this type); data { webhook_id, message: "This is a test event from Job
    Fair.", test: true }

    Delivery: POST of the envelope `{ id: evt_…, type, created_at (Unix s), data }` with headers `Svc-
    Signature: t=<unix>,v1=<hex>` (HMAC-SHA256 of `<t>.<raw body>` keyed with the secret; a second `v1=`
    while a rotated secret is still valid), `Svc-Event`, `Svc-Delivery-Id` (`dlv_`, one per attempt),
    `Svc-Subscription-Id`, `Content-Type: application/json`. Success = 2xx within 10 s; redirects are
    not followed; retries after 30 s, 5 min, 30 min, 6 h, 24 h, then dead letter; 25 consecutive
    failures pause the subscription (e-mail to the owner). Bodies over 64 KB are not delivered
    (`oversize`).

    Scope: `webhooks:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (CreateWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookSubscriptionCreated
    """

    return (
        await asyncio_detailed(
            client=client,
            body=body,
            x_agent_identity=x_agent_identity,
            idempotency_key=idempotency_key,
        )
    ).parsed
