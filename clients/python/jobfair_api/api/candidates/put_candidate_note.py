from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.candidate_note_put_input import CandidateNotePutInput
from ...models.error import Error
from ...models.put_candidate_note_response_200 import PutCandidateNoteResponse200
from ...types import UNSET, Response, Unset


def _get_kwargs(
    user_id: UUID,
    *,
    body: CandidateNotePutInput,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_agent_identity, Unset):
        headers["X-Agent-Identity"] = x_agent_identity

    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key

    _kwargs: dict[str, Any] = {
        "method": "put",
        "url": "/api/v1/candidates/{user_id}/note".format(
            user_id=quote(str(user_id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | PutCandidateNoteResponse200 | None:
    if response.status_code == 200:
        response_200 = PutCandidateNoteResponse200.from_dict(response.json())

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
) -> Response[Error | PutCandidateNoteResponse200]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    user_id: UUID,
    *,
    client: AuthenticatedClient,
    body: CandidateNotePutInput,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | PutCandidateNoteResponse200]:
    """Set the team's note and rating on a candidate

     Replaces the note and rating (1–5; omit or null for none). Seen only by the team.

    Scope: `candidates:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID
    v4).

    Args:
        user_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (CandidateNotePutInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PutCandidateNoteResponse200]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    user_id: UUID,
    *,
    client: AuthenticatedClient,
    body: CandidateNotePutInput,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | PutCandidateNoteResponse200 | None:
    """Set the team's note and rating on a candidate

     Replaces the note and rating (1–5; omit or null for none). Seen only by the team.

    Scope: `candidates:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID
    v4).

    Args:
        user_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (CandidateNotePutInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PutCandidateNoteResponse200
    """

    return sync_detailed(
        user_id=user_id,
        client=client,
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    ).parsed


async def asyncio_detailed(
    user_id: UUID,
    *,
    client: AuthenticatedClient,
    body: CandidateNotePutInput,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Response[Error | PutCandidateNoteResponse200]:
    """Set the team's note and rating on a candidate

     Replaces the note and rating (1–5; omit or null for none). Seen only by the team.

    Scope: `candidates:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID
    v4).

    Args:
        user_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (CandidateNotePutInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | PutCandidateNoteResponse200]
    """

    kwargs = _get_kwargs(
        user_id=user_id,
        body=body,
        x_agent_identity=x_agent_identity,
        idempotency_key=idempotency_key,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    user_id: UUID,
    *,
    client: AuthenticatedClient,
    body: CandidateNotePutInput,
    x_agent_identity: str | Unset = UNSET,
    idempotency_key: str | Unset = UNSET,
) -> Error | PutCandidateNoteResponse200 | None:
    """Set the team's note and rating on a candidate

     Replaces the note and rating (1–5; omit or null for none). Seen only by the team.

    Scope: `candidates:write`. Rate class: write (30/min per token). Accepts `Idempotency-Key` (UUID
    v4).

    Args:
        user_id (UUID):
        x_agent_identity (str | Unset):
        idempotency_key (str | Unset):
        body (CandidateNotePutInput):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | PutCandidateNoteResponse200
    """

    return (
        await asyncio_detailed(
            user_id=user_id,
            client=client,
            body=body,
            x_agent_identity=x_agent_identity,
            idempotency_key=idempotency_key,
        )
    ).parsed
