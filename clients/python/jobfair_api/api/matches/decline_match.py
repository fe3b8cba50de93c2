from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.decline_match_body import DeclineMatchBody
from ...models.decline_match_response_200 import DeclineMatchResponse200
from ...models.error import Error
from ...types import UNSET, Response, Unset


def _get_kwargs(
    match_id: UUID,
    *,
    body: DeclineMatchBody,
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
        "url": "/api/v1/matches/{match_id}/decline".format(
            match_id=quote(str(match_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> DeclineMatchResponse200 | Error | None:
    if response.status_code == 200:
        response_200 = DeclineMatchResponse200.from_dict(response.json())

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
) -> Response[DeclineMatchResponse200 | Error]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    match_id: UUID,
    *,
    client: AuthenticatedClient,
    body: DeclineMatchBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[DeclineMatchResponse200 | Error]:
    """Decline a match

     Only a party of the match (the seeker, or a recruiter of the job's team; anyone else → 404) and only
    while it is `matched` (else 409 MATCH_NOT_DECLINABLE). The decision, the free-text reason and the
    optional `reason_code` (fixed vocabulary) are recorded and shown to the other party; the seeker's
    queue entry goes back to waiting in its original place (same entered_at) and the seeker is never
    offered the same job again (any later entry included). A seeker's `salary` or `location` code lowers
    that score component's weight for the rest of the entry (docs/match-score.md, v2). With
    `leave_queue: true` the seeker also leaves the queue: the entry ends `left` (never waiting in
    between, so no other match is offered) and the answer comes once it reads `left`; a recruiter
    sending it → 403 ROLE_NOT_ALLOWED. Once a recruiter accepted for the team, only they (the match's
    `recruiter_user_id`, its interviewer) decline on the team's side: a teammate → 403
    MATCH_NOT_YOUR_INTERVIEW. Before any recruiter accepts, anyone of the team may decline.

    Scope: `matches:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        match_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (DeclineMatchBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeclineMatchResponse200 | Error]
    """

    kwargs = _get_kwargs(
        match_id=match_id,
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    match_id: UUID,
    *,
    client: AuthenticatedClient,
    body: DeclineMatchBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> DeclineMatchResponse200 | Error | None:
    """Decline a match

     Only a party of the match (the seeker, or a recruiter of the job's team; anyone else → 404) and only
    while it is `matched` (else 409 MATCH_NOT_DECLINABLE). The decision, the free-text reason and the
    optional `reason_code` (fixed vocabulary) are recorded and shown to the other party; the seeker's
    queue entry goes back to waiting in its original place (same entered_at) and the seeker is never
    offered the same job again (any later entry included). A seeker's `salary` or `location` code lowers
    that score component's weight for the rest of the entry (docs/match-score.md, v2). With
    `leave_queue: true` the seeker also leaves the queue: the entry ends `left` (never waiting in
    between, so no other match is offered) and the answer comes once it reads `left`; a recruiter
    sending it → 403 ROLE_NOT_ALLOWED. Once a recruiter accepted for the team, only they (the match's
    `recruiter_user_id`, its interviewer) decline on the team's side: a teammate → 403
    MATCH_NOT_YOUR_INTERVIEW. Before any recruiter accepts, anyone of the team may decline.

    Scope: `matches:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        match_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (DeclineMatchBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeclineMatchResponse200 | Error
    """

    return sync_detailed(
        match_id=match_id,
        client=client,
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    match_id: UUID,
    *,
    client: AuthenticatedClient,
    body: DeclineMatchBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[DeclineMatchResponse200 | Error]:
    """Decline a match

     Only a party of the match (the seeker, or a recruiter of the job's team; anyone else → 404) and only
    while it is `matched` (else 409 MATCH_NOT_DECLINABLE). The decision, the free-text reason and the
    optional `reason_code` (fixed vocabulary) are recorded and shown to the other party; the seeker's
    queue entry goes back to waiting in its original place (same entered_at) and the seeker is never
    offered the same job again (any later entry included). A seeker's `salary` or `location` code lowers
    that score component's weight for the rest of the entry (docs/match-score.md, v2). With
    `leave_queue: true` the seeker also leaves the queue: the entry ends `left` (never waiting in
    between, so no other match is offered) and the answer comes once it reads `left`; a recruiter
    sending it → 403 ROLE_NOT_ALLOWED. Once a recruiter accepted for the team, only they (the match's
    `recruiter_user_id`, its interviewer) decline on the team's side: a teammate → 403
    MATCH_NOT_YOUR_INTERVIEW. Before any recruiter accepts, anyone of the team may decline.

    Scope: `matches:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        match_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (DeclineMatchBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[DeclineMatchResponse200 | Error]
    """

    kwargs = _get_kwargs(
        match_id=match_id,
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    match_id: UUID,
    *,
    client: AuthenticatedClient,
    body: DeclineMatchBody,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> DeclineMatchResponse200 | Error | None:
    """Decline a match

     Only a party of the match (the seeker, or a recruiter of the job's team; anyone else → 404) and only
    while it is `matched` (else 409 MATCH_NOT_DECLINABLE). The decision, the free-text reason and the
    optional `reason_code` (fixed vocabulary) are recorded and shown to the other party; the seeker's
    queue entry goes back to waiting in its original place (same entered_at) and the seeker is never
    offered the same job again (any later entry included). A seeker's `salary` or `location` code lowers
    that score component's weight for the rest of the entry (docs/match-score.md, v2). With
    `leave_queue: true` the seeker also leaves the queue: the entry ends `left` (never waiting in
    between, so no other match is offered) and the answer comes once it reads `left`; a recruiter
    sending it → 403 ROLE_NOT_ALLOWED. Once a recruiter accepted for the team, only they (the match's
    `recruiter_user_id`, its interviewer) decline on the team's side: a teammate → 403
    MATCH_NOT_YOUR_INTERVIEW. Before any recruiter accepts, anyone of the team may decline.

    Scope: `matches:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID v4).

    Args:
        match_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (DeclineMatchBody):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        DeclineMatchResponse200 | Error
    """

    return (
        await asyncio_detailed(
            match_id=match_id,
            client=client,
            body=body,
            x_agent_identity=x_agent_identity,
            idempotency_key=idempotency_key,
        )
    ).parsed
