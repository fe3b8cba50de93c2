"""Webhook verification: real deliveries, a secret rotation, and the service's signing code."""

from __future__ import annotations

import time

import pytest

from conftest import Receiver, env
from jobfair_api.api.webhooks import create_webhook, rotate_webhook_secret, test_webhook
from jobfair_api.models.create_webhook_body import CreateWebhookBody
from jobfair_api.models.create_webhook_body_events_item import (
    CreateWebhookBodyEventsItem,
)
from jobfair_client import (
    WEBHOOK_EVENT_MODELS,
    MatchMatchedEvent,
    WebhookTestEvent,
    WebhookVerificationError,
    create_client,
    must,
    parse_event,
    verify_webhook,
)


def delivery_of(rx: Receiver, event_id: str, timeout: float = 30.0) -> tuple[dict, bytes]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for headers, body in list(rx.deliveries):
            if headers.get("webhook-id") == event_id:
                return headers, body
        time.sleep(0.1)
    raise AssertionError(f"no delivery of {event_id} within {timeout} s")


def without_svc(headers: dict) -> dict:
    return {k: v for k, v in headers.items() if k != "svc-signature"}


def test_a_real_delivery_verifies_in_both_schemes_and_across_a_rotation(
    base_url: str, receiver: Receiver
) -> None:
    client = create_client(base_url, token=env("JOBFAIR_TOKEN"))
    hook = must(
        create_webhook.sync_detailed(
            client=client,
            body=CreateWebhookBody(
                target_url=receiver.url("/hook"),
                events=[CreateWebhookBodyEventsItem.MATCH_MATCHED],
            ),
        )
    )
    sent = must(test_webhook.sync_detailed(hook.id, client=client))
    headers, body = delivery_of(receiver, sent.event.id)

    verified = verify_webhook(body, headers, hook.secret)
    assert verified.scheme == "svc-signature"
    assert verified.event["id"] == sent.event.id
    standard = verify_webhook(body, without_svc(headers), hook.secret)
    assert standard.scheme == "standard-webhooks"
    # The payload model of the event's type, generated from the document's webhooks section.
    event = verified.model()
    assert isinstance(event, WebhookTestEvent)
    assert event.data.webhook_id == hook.id
    assert event.data.test is True
    for h in (headers, without_svc(headers)):
        with pytest.raises(WebhookVerificationError):
            verify_webhook(body, h, "svc_whsec_wrong")
        with pytest.raises(WebhookVerificationError):
            verify_webhook(body.replace(b"webhook.test", b"webhook.tesT"), h, hook.secret)

    # While a rotated secret is still valid, deliveries carry a signature for each secret.
    rotated = must(rotate_webhook_secret.sync_detailed(hook.id, client=client))
    assert rotated.secret != hook.secret
    sent = must(test_webhook.sync_detailed(hook.id, client=client))
    headers, body = delivery_of(receiver, sent.event.id)
    for h in (headers, without_svc(headers)):
        assert verify_webhook(body, h, hook.secret).event["id"] == sent.event.id
        assert verify_webhook(body, h, rotated.secret).event["id"] == sent.event.id
        assert verify_webhook(body, h, ["svc_whsec_wrong", rotated.secret]).event
        with pytest.raises(WebhookVerificationError):
            verify_webhook(body, h, ["svc_whsec_wrong", "svc_whsec_other"])


def test_signatures_made_by_the_service_signing_code(signing_vector: dict) -> None:
    v = signing_vector
    body = v["payload"].encode("utf-8")
    headers = v["headers"]
    t = v["t"]
    for h in (headers, without_svc(headers)):
        for secret in v["secrets"]:  # signed with two secrets, as during a rotation
            assert verify_webhook(body, h, secret, now=t).event["id"] == v["event_id"]
        # Tolerance: 300 s either way, inclusive.
        assert verify_webhook(body, h, v["secrets"][0], now=t + 300).event
        assert verify_webhook(body, h, v["secrets"][0], now=t - 300).event
        for now in (t + 301, t - 301):
            with pytest.raises(WebhookVerificationError, match="tolerance"):
                verify_webhook(body, h, v["secrets"][0], now=now)
        with pytest.raises(WebhookVerificationError):
            verify_webhook(body + b" ", h, v["secrets"][0], now=t)
    # The Svc-Signature hex and the Standard Webhooks base64 are the values the service computed.
    assert headers["svc-signature"].startswith(f"t={t},v1=")
    with pytest.raises(WebhookVerificationError, match="neither"):
        verify_webhook(body, {}, v["secrets"][0], now=t)


def test_parse_event_gives_the_model_of_each_type() -> None:
    assert set(WEBHOOK_EVENT_MODELS) >= {
        "match.matched",
        "match.accepted",
        "interview.completed",
        "match.no_show",
        "changelog.api",
        "webhook.test",
    }
    assert WEBHOOK_EVENT_MODELS["match.matched"] is MatchMatchedEvent
    unknown = {"id": "evt_1", "type": "something.new", "created_at": 1, "data": {}}
    assert parse_event(unknown) == unknown
