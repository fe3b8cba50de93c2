from http import HTTPStatus
from typing import Any
from urllib.parse import quote

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.update_webhook_body import UpdateWebhookBody
from ...models.webhook_subscription import WebhookSubscription
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: str,
    *,
    body: UpdateWebhookBody,
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
        "url": "/api/v1/webhooks/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | WebhookSubscription | None:
    if response.status_code == 200:
        response_200 = WebhookSubscription.from_dict(response.json())

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
) -> Response[Error | WebhookSubscription]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: UpdateWebhookBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | WebhookSubscription]:
    """Change target, events, description or status

     `status: "active"` re-enables a paused (or disabled) subscription and resets its consecutive-failure
    counter; `status: "disabled"` stops it (waiting retries end as cancelled). `paused` is set only by
    the service. Subscriptions belong to the caller's team when the caller is a recruiter with a team,
    otherwise to the caller; another owner's subscription answers 404.

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

    Scope: `webhooks:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        id (str):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (UpdateWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookSubscription]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    body: UpdateWebhookBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | WebhookSubscription | None:
    """Change target, events, description or status

     `status: "active"` re-enables a paused (or disabled) subscription and resets its consecutive-failure
    counter; `status: "disabled"` stops it (waiting retries end as cancelled). `paused` is set only by
    the service. Subscriptions belong to the caller's team when the caller is a recruiter with a team,
    otherwise to the caller; another owner's subscription answers 404.

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

    Scope: `webhooks:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        id (str):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (UpdateWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookSubscription
    """

    return sync_detailed(
        id=id,
        client=client,
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: UpdateWebhookBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | WebhookSubscription]:
    """Change target, events, description or status

     `status: "active"` re-enables a paused (or disabled) subscription and resets its consecutive-failure
    counter; `status: "disabled"` stops it (waiting retries end as cancelled). `paused` is set only by
    the service. Subscriptions belong to the caller's team when the caller is a recruiter with a team,
    otherwise to the caller; another owner's subscription answers 404.

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

    Scope: `webhooks:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        id (str):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (UpdateWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | WebhookSubscription]
    """

    kwargs = _get_kwargs(
        id=id,
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: UpdateWebhookBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | WebhookSubscription | None:
    """Change target, events, description or status

     `status: "active"` re-enables a paused (or disabled) subscription and resets its consecutive-failure
    counter; `status: "disabled"` stops it (waiting retries end as cancelled). `paused` is set only by
    the service. Subscriptions belong to the caller's team when the caller is a recruiter with a team,
    otherwise to the caller; another owner's subscription answers 404.

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

    Scope: `webhooks:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        id (str):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (UpdateWebhookBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | WebhookSubscription
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            body=body,
            x_agent_identity=x_agent_identity,
            idempotency_key=idempotency_key,
        )
    ).parsed
