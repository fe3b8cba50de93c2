"""The client against the real API: the agent flow, idempotency, Retry-After, pagination, errors."""

from __future__ import annotations

import asyncio
import logging
import time
import uuid

import httpx
import pytest

from agent_flow import run_agent_flow
from conftest import env
from jobfair_api.api.profile import get_profile, update_profile
from jobfair_api.api.webhooks import create_webhook, get_webhook, list_webhooks
from jobfair_api.models.create_webhook_body import CreateWebhookBody
from jobfair_api.models.create_webhook_body_events_item import (
    CreateWebhookBodyEventsItem,
)
from jobfair_api.models.profile_patch_input import ProfilePatchInput
from jobfair_client import (
    JobfairApiError,
    RateLimitInfo,
    apaginate,
    create_client,
    must,
    paginate,
)


class Recording(httpx.BaseTransport):
    """The network transport, noting each attempt's method, path, Idempotency-Key and status."""

    def __init__(self) -> None:
        self.inner = httpx.HTTPTransport()
        self.attempts: list[tuple[str, str, str | None, int]] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = self.inner.handle_request(request)
        self.attempts.append(
            (
                request.method,
                request.url.path,
                request.headers.get("idempotency-key"),
                response.status_code,
            )
        )
        return response


def hook_body(url: str) -> CreateWebhookBody:
    return CreateWebhookBody(target_url=url, events=[CreateWebhookBodyEventsItem.MATCH_MATCHED])


def test_the_example_agent_flow_runs_green(base_url: str) -> None:
    lines: list[str] = []
    out = run_agent_flow(
        base_url,
        env("JOBFAIR_FLOW_TOKEN"),
        [env("JOBFAIR_SKILL")],
        poll_interval=0.2,
        timeout=60,
        say=lines.append,
    )
    assert env("JOBFAIR_EVENT_SLUG") in [e.slug for e in out.events]
    assert out.joined.join_url.startswith("http://jobfair.test/")
    assert out.entry.status == "matched"
    assert out.match.id == out.entry.match_id
    assert out.match.status == "matched"
    # The human is handed the match page, where they accept, not the queue page.
    assert out.entry.details_url == f"http://jobfair.test/matches/{out.entry.match_id}"
    assert "hand this to the human" in "\n".join(lines)


def test_a_call_repeated_with_its_idempotency_key_is_answered_from_the_first(
    base_url: str,
) -> None:
    client = create_client(base_url, token=env("JOBFAIR_TOKEN"))
    # Without a key of yours each call gets its own: two subscriptions.
    a = must(create_webhook.sync_detailed(client=client, body=hook_body("http://127.0.0.1:9/a")))
    b = must(create_webhook.sync_detailed(client=client, body=hook_body("http://127.0.0.1:9/a")))
    assert a.id != b.id
    # Your key (a retry of your own): the second call acts not again but replays the first answer.
    key = str(uuid.uuid4())
    first = create_webhook.sync_detailed(
        client=client, body=hook_body("http://127.0.0.1:9/c"), idempotency_key=key
    )
    again = create_webhook.sync_detailed(
        client=client, body=hook_body("http://127.0.0.1:9/c"), idempotency_key=key
    )
    assert must(again).id == must(first).id
    assert again.headers.get("idempotent-replayed") == "true"


def test_429_is_retried_after_retry_after_with_the_same_idempotency_key(
    base_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    recording = Recording()
    infos: list[RateLimitInfo] = []
    client = create_client(
        base_url,
        token=env("JOBFAIR_RATE_TOKEN"),
        transport=recording,
        on_rate_limit=lambda info, method, path: infos.append(info),
    )
    caplog.set_level(logging.INFO, logger="jobfair_client")
    started = time.monotonic()
    # Writes: 30/min by default, a burst of 30 refilled at one every 2 s: calls in a row are
    # answered 429 with Retry-After soon after the 30th.
    calls = 0
    while not any(a[3] == 429 for a in recording.attempts):
        assert calls < 100, "no call was answered 429"
        title = f"Engineer {calls}"
        must(update_profile.sync_detailed(client=client, body=ProfilePatchInput(title=title)))
        calls += 1
    assert time.monotonic() - started >= 0.9
    limited = [n for n, a in enumerate(recording.attempts) if a[3] == 429]
    # The retry is the same logical call: the same Idempotency-Key, until it is answered.
    key = recording.attempts[limited[0]][2]
    assert key is not None
    same_call = [a for a in recording.attempts if a[2] == key]
    assert len(same_call) >= 2
    assert [a[3] for a in same_call][-1] == 200
    keys = [a[2] for n, a in enumerate(recording.attempts) if n not in limited]
    assert len(set(keys)) == calls
    assert "answered 429; retrying in" in caplog.text
    assert infos and infos[-1].limit == 30
    profile = must(get_profile.sync_detailed(client=client)).profile
    assert profile is not None and profile.title == f"Engineer {calls - 1}"


def test_a_longer_retry_after_than_allowed_goes_to_the_caller(base_url: str) -> None:
    client = create_client(base_url, token=env("JOBFAIR_RATE_TOKEN"), max_retry_after_seconds=0)
    with pytest.raises(JobfairApiError) as err:
        for i in range(100):
            must(
                update_profile.sync_detailed(client=client, body=ProfilePatchInput(title=f"T {i}"))
            )
    assert err.value.status == 429
    assert err.value.code == "RATE_LIMITED"


def test_paginate_walks_every_page(base_url: str) -> None:
    client = create_client(base_url, token=env("JOBFAIR_TOKEN"))
    created = [
        must(
            create_webhook.sync_detailed(client=client, body=hook_body(f"http://127.0.0.1:9/p{i}"))
        ).id
        for i in range(3)
    ]
    seen = [w.id for w in paginate(list_webhooks, client=client, limit=1)]
    assert set(created) <= set(seen)
    assert len(seen) == len(set(seen))
    one_page = must(list_webhooks.sync_detailed(client=client, limit=100))
    assert sorted(seen) == sorted(w.id for w in one_page.data)


def test_the_asyncio_functions_go_through_the_same_layer(base_url: str) -> None:
    client = create_client(base_url, token=env("JOBFAIR_TOKEN"))

    async def both() -> tuple[object, list[str]]:
        created = must(
            await create_webhook.asyncio_detailed(
                client=client, body=hook_body("http://127.0.0.1:9/async")
            )
        )
        return created, [w.id async for w in apaginate(list_webhooks, client=client, limit=2)]

    created, seen = asyncio.run(both())
    assert created.id in seen
    assert sorted(seen) == sorted(w.id for w in paginate(list_webhooks, client=client, limit=100))


def test_errors_raise_with_the_envelope(base_url: str) -> None:
    client = create_client(base_url, token=env("JOBFAIR_TOKEN"))
    with pytest.raises(JobfairApiError) as err:
        must(get_webhook.sync_detailed("whk_" + "0" * 24, client=client))
    assert err.value.status == 404
    assert err.value.code and err.value.code != "UNKNOWN"
    with pytest.raises(JobfairApiError) as err:
        must(get_webhook.sync_detailed("not_a_webhook_id", client=client))
    assert err.value.status == 400
    assert err.value.details
    anonymous = create_client(base_url, token="svc_not_a_token")
    with pytest.raises(JobfairApiError) as err:
        must(get_profile.sync_detailed(client=anonymous))
    assert err.value.status == 401
    assert err.value.code != "UNKNOWN"
