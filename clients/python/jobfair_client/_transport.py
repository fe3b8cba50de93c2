"""The API's conventions as httpx transports, under the generated client.

Every request the generated functions send passes through here: an Idempotency-Key on each
mutating call (yours wins when you pass ``idempotency_key=``), kept across this layer's own
retries so a retried POST never acts twice; Retry-After honoured on 429, 503 and 409
IDEMPOTENCY_KEY_IN_USE, a bounded number of times; the rate-limit headers reported;
Deprecation/Sunset logged once per operation.
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

import httpx

MUTATING = frozenset({"POST", "PATCH", "PUT", "DELETE"})


class RateLimitInfo(NamedTuple):
    limit: int
    remaining: int
    reset: int
    """Unix seconds when the bucket is full again."""


@dataclass
class Policy:
    max_retries: int = 3
    max_retry_after_seconds: float = 60.0
    idempotency_key: Callable[[], str] = lambda: str(uuid.uuid4())
    on_rate_limit: Callable[[RateLimitInfo, str, str], None] | None = None
    logger: logging.Logger = field(default_factory=lambda: logging.getLogger("jobfair_client"))
    warned: set[str] = field(default_factory=set)

    def prepare(self, request: httpx.Request) -> None:
        """Sets the Idempotency-Key once per logical call."""
        if request.method in MUTATING and "idempotency-key" not in request.headers:
            request.headers["Idempotency-Key"] = self.idempotency_key()

    def wait_before_retry(
        self, request: httpx.Request, response: httpx.Response, attempt: int
    ) -> float | None:
        """Seconds to wait before retrying, or None when the answer goes to the caller."""
        status = response.status_code
        retryable = status in (429, 503) or (status == 409 and "retry-after" in response.headers)
        if not retryable or attempt > self.max_retries:
            return None
        try:
            seconds = float(response.headers.get("retry-after", ""))
        except ValueError:
            return None
        if not math.isfinite(seconds) or seconds < 0:
            return None
        if seconds > self.max_retry_after_seconds:
            return None
        self.logger.info(
            "jobfair: %s %s answered %d; retrying in %g s (attempt %d of %d)",
            request.method,
            request.url.path,
            status,
            seconds,
            attempt,
            self.max_retries,
        )
        return seconds

    def report(self, request: httpx.Request, response: httpx.Response) -> None:
        headers = response.headers
        if self.on_rate_limit and "x-ratelimit-limit" in headers:
            info = RateLimitInfo(
                limit=int(headers["x-ratelimit-limit"]),
                remaining=int(headers.get("x-ratelimit-remaining", "0")),
                reset=int(headers.get("x-ratelimit-reset", "0")),
            )
            self.on_rate_limit(info, request.method, request.url.path)
        deprecation = headers.get("deprecation")
        operation = f"{request.method} {request.url.path}"
        if deprecation and operation not in self.warned:
            self.warned.add(operation)
            sunset = headers.get("sunset")
            link = headers.get("link")
            self.logger.warning(
                "jobfair: %s is deprecated (Deprecation: %s%s%s)",
                operation,
                deprecation,
                f"; removed after {sunset}" if sunset else "",
                f"; {link}" if link else "",
            )


class JobfairTransport(httpx.BaseTransport):
    """Wraps a transport (default httpx.HTTPTransport) with the conventions."""

    def __init__(self, policy: Policy, inner: httpx.BaseTransport | None = None) -> None:
        self.policy = policy
        self.inner = inner or httpx.HTTPTransport()

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        self.policy.prepare(request)
        request.read()  # the body is sent again, unchanged, on a retry
        attempt = 1
        while True:
            response = self.inner.handle_request(request)
            wait = self.policy.wait_before_retry(request, response, attempt)
            if wait is None:
                break
            response.read()
            response.close()
            time.sleep(wait)
            attempt += 1
        self.policy.report(request, response)
        return response

    def close(self) -> None:
        self.inner.close()


class AsyncJobfairTransport(httpx.AsyncBaseTransport):
    """The same for the generated ``asyncio`` functions."""

    def __init__(self, policy: Policy, inner: httpx.AsyncBaseTransport | None = None) -> None:
        self.policy = policy
        self.inner = inner or httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        self.policy.prepare(request)
        await request.aread()
        attempt = 1
        while True:
            response = await self.inner.handle_async_request(request)
            wait = self.policy.wait_before_retry(request, response, attempt)
            if wait is None:
                break
            await response.aread()
            await response.aclose()
            await asyncio.sleep(wait)
            attempt += 1
        self.policy.report(request, response)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()
