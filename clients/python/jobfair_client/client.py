"""The client: the generated package's client with the conventions, errors, pagination."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import httpx

from jobfair_api import AuthenticatedClient, Client
from jobfair_api.models.error import Error
from jobfair_api.types import Response, Unset

from ._transport import AsyncJobfairTransport, JobfairTransport, Policy, RateLimitInfo

T = TypeVar("T")


class JobfairApiError(Exception):
    """A non-2xx answer: ``status``, and ``code``, ``details`` from the error envelope."""

    def __init__(
        self,
        status: int,
        code: str,
        message: str,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details or {}

    def __str__(self) -> str:
        return f"{self.status} {self.code}: {self.message}"


def create_client(
    base_url: str,
    *,
    token: str | None = None,
    agent_identity: str | None = None,
    max_retries: int = 3,
    max_retry_after_seconds: float = 60.0,
    idempotency_key: Callable[[], str] | None = None,
    on_rate_limit: Callable[[RateLimitInfo, str, str], None] | None = None,
    logger: logging.Logger | None = None,
    timeout: float = 30.0,
    transport: httpx.BaseTransport | None = None,
    async_transport: httpx.AsyncBaseTransport | None = None,
) -> AuthenticatedClient | Client:
    """The generated package's client, sending every request through the conventions.

    ``base_url`` e.g. ``https://jobfair.example`` (paths start with ``/api/v1``); ``token`` a
    ``svc_…`` personal access token (omit it for the public discovery routes: a plain Client);
    ``agent_identity`` is sent as ``X-Agent-Identity`` (``<vendor>/<product> (<contact>)``).
    A 429, 503 or 409 IDEMPOTENCY_KEY_IN_USE is retried after its Retry-After up to
    ``max_retries`` times; a longer wait than ``max_retry_after_seconds`` goes to the caller.
    ``transport``/``async_transport`` replace the network transports (tests, proxies).
    """
    policy = Policy(max_retries=max_retries, max_retry_after_seconds=max_retry_after_seconds)
    if idempotency_key is not None:
        policy.idempotency_key = idempotency_key
    if logger is not None:
        policy.logger = logger
    policy.on_rate_limit = on_rate_limit

    base = base_url.rstrip("/")
    headers = {"X-Agent-Identity": agent_identity} if agent_identity else {}
    http_timeout = httpx.Timeout(timeout)
    client: AuthenticatedClient | Client
    if token:
        client = AuthenticatedClient(
            base_url=base, token=token, headers=headers, timeout=http_timeout
        )
        headers = {**headers, "Authorization": f"Bearer {token}"}
    else:
        client = Client(base_url=base, headers=headers, timeout=http_timeout)
    client.set_httpx_client(
        httpx.Client(
            base_url=base,
            headers=headers,
            timeout=http_timeout,
            transport=JobfairTransport(policy, transport),
        )
    )
    client.set_async_httpx_client(
        httpx.AsyncClient(
            base_url=base,
            headers=headers,
            timeout=http_timeout,
            transport=AsyncJobfairTransport(policy, async_transport),
        )
    )
    return client


def _envelope(response: Response[Any]) -> JobfairApiError:
    code, message, details = "UNKNOWN", f"HTTP {int(response.status_code)}", None
    try:
        body = json.loads(response.content)
    except ValueError:
        body = None
    if isinstance(body, dict):
        code = str(body.get("code", code))
        message = str(body.get("error", message))
        if isinstance(body.get("details"), dict):
            details = body["details"]
    return JobfairApiError(int(response.status_code), code, message, details)


def must(response: Response[T | Error]) -> T:
    """The parsed 2xx answer of a ``sync_detailed``/``asyncio_detailed`` call, or JobfairApiError.

    ``must(search_jobs.sync_detailed(client=client, skills="Python"))``
    """
    status = int(response.status_code)
    if (
        status < 200
        or status >= 300
        or response.parsed is None
        or isinstance(response.parsed, Error)
    ):
        raise _envelope(response)
    return response.parsed  # type: ignore[return-value]


def paginate(
    endpoint: Any, *, client: AuthenticatedClient | Client, **kwargs: Any
) -> Iterator[Any]:
    """Every item of a paginated GET (``{ data, next_cursor, has_more }``), page after page.

    ``endpoint`` is a generated module (``jobfair_api.api.webhooks.list_webhooks``) or its
    ``sync_detailed``; other keyword arguments are its parameters (``limit=50``).
    """
    call = getattr(endpoint, "sync_detailed", endpoint)
    cursor: str | None = None
    while True:
        page = must(call(client=client, **kwargs, **({"cursor": cursor} if cursor else {})))
        yield from page.data
        next_cursor = page.next_cursor
        if not page.has_more or isinstance(next_cursor, Unset) or not next_cursor:
            return
        cursor = next_cursor


async def apaginate(endpoint: Any, *, client: AuthenticatedClient | Client, **kwargs: Any):
    """``paginate`` for the ``asyncio`` functions: ``async for item in apaginate(...)``."""
    call = getattr(endpoint, "asyncio_detailed", endpoint)
    cursor: str | None = None
    while True:
        page = must(await call(client=client, **kwargs, **({"cursor": cursor} if cursor else {})))
        for item in page.data:
            yield item
        next_cursor = page.next_cursor
        if not page.has_more or isinstance(next_cursor, Unset) or not next_cursor:
            return
        cursor = next_cursor
