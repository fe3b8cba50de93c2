from http import HTTPStatus
from typing import Any
from urllib.parse import quote
from uuid import UUID

import httpx

from ... import errors
from ...client import AuthenticatedClient, Client
from ...models.error import Error
from ...models.interview_room_url import InterviewRoomUrl
from ...types import UNSET, Response, Unset


def _get_kwargs(
    id: UUID,
    *,
    x_agent_identity: str | Unset = UNSET,
) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(x_agent_identity, Unset):
        headers["X-Agent-Identity"] = x_agent_identity

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/api/v1/matches/{id}/interview-room-url".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["headers"] = headers
    return _kwargs


def _parse_response(
    *, client: AuthenticatedClient | Client, response: httpx.Response
) -> Error | InterviewRoomUrl | None:
    if response.status_code == 200:
        response_200 = InterviewRoomUrl.from_dict(response.json())

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
) -> Response[Error | InterviewRoomUrl]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
) -> Response[Error | InterviewRoomUrl]:
    """The interview room URL of an accepted match

     Cost-bearing (3/min per token; a repeat within the same minute for the same match returns the same
    answer and costs no quota). Only after both humans accepted in the web application: before that 409
    MATCH_NOT_ACCEPTED; after the interview 409 MATCH_INTERVIEW_COMPLETED. The URL admits the calling
    party until `expires_at` (never past the interview's end). Video provider unreachable → 503
    DEPENDENCY_UNAVAILABLE (retry). On the team's side only the match's recruiter (`recruiter_user_id`:
    who accepted) enters; a teammate → 403 MATCH_NOT_YOUR_INTERVIEW.

    Scope: `matches:read`. Rate class: cost (3/min per token). Identical calls by one token within 60 s
    get the first answer again without using quota.

    Args:
        id (UUID):
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | InterviewRoomUrl]
    """

    kwargs = _get_kwargs(
        id=id,
        x_agent_identity=x_agent_identity,
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)


def sync(
    id: UUID,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
) -> Error | InterviewRoomUrl | None:
    """The interview room URL of an accepted match

     Cost-bearing (3/min per token; a repeat within the same minute for the same match returns the same
    answer and costs no quota). Only after both humans accepted in the web application: before that 409
    MATCH_NOT_ACCEPTED; after the interview 409 MATCH_INTERVIEW_COMPLETED. The URL admits the calling
    party until `expires_at` (never past the interview's end). Video provider unreachable → 503
    DEPENDENCY_UNAVAILABLE (retry). On the team's side only the match's recruiter (`recruiter_user_id`:
    who accepted) enters; a teammate → 403 MATCH_NOT_YOUR_INTERVIEW.

    Scope: `matches:read`. Rate class: cost (3/min per token). Identical calls by one token within 60 s
    get the first answer again without using quota.

    Args:
        id (UUID):
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | InterviewRoomUrl
    """

    return sync_detailed(
        id=id,
        client=client,
        x_agent_identity=x_agent_identity,
    ).parsed


async def asyncio_detailed(
    id: UUID,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
) -> Response[Error | InterviewRoomUrl]:
    """The interview room URL of an accepted match

     Cost-bearing (3/min per token; a repeat within the same minute for the same match returns the same
    answer and costs no quota). Only after both humans accepted in the web application: before that 409
    MATCH_NOT_ACCEPTED; after the interview 409 MATCH_INTERVIEW_COMPLETED. The URL admits the calling
    party until `expires_at` (never past the interview's end). Video provider unreachable → 503
    DEPENDENCY_UNAVAILABLE (retry). On the team's side only the match's recruiter (`recruiter_user_id`:
    who accepted) enters; a teammate → 403 MATCH_NOT_YOUR_INTERVIEW.

    Scope: `matches:read`. Rate class: cost (3/min per token). Identical calls by one token within 60 s
    get the first answer again without using quota.

    Args:
        id (UUID):
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Error | InterviewRoomUrl]
    """

    kwargs = _get_kwargs(
        id=id,
        x_agent_identity=x_agent_identity,
    )

    response = await client.get_async_httpx_client().request(**kwargs)

    return _build_response(client=client, response=response)


async def asyncio(
    id: UUID,
    *,
    client: AuthenticatedClient,
    x_agent_identity: str | Unset = UNSET,
) -> Error | InterviewRoomUrl | None:
    """The interview room URL of an accepted match

     Cost-bearing (3/min per token; a repeat within the same minute for the same match returns the same
    answer and costs no quota). Only after both humans accepted in the web application: before that 409
    MATCH_NOT_ACCEPTED; after the interview 409 MATCH_INTERVIEW_COMPLETED. The URL admits the calling
    party until `expires_at` (never past the interview's end). Video provider unreachable → 503
    DEPENDENCY_UNAVAILABLE (retry). On the team's side only the match's recruiter (`recruiter_user_id`:
    who accepted) enters; a teammate → 403 MATCH_NOT_YOUR_INTERVIEW.

    Scope: `matches:read`. Rate class: cost (3/min per token). Identical calls by one token within 60 s
    get the first answer again without using quota.

    Args:
        id (UUID):
        x_agent_identity (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Error | InterviewRoomUrl
    """

    return (
        await asyncio_detailed(
            id=id,
            client=client,
            x_agent_identity=x_agent_identity,
        )
    ).parsed
