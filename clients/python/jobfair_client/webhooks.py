"""Receiver side: verify a Job Fair delivery with either signature scheme it carries.

Both schemes are signed with the same ``svc_whsec_…`` secret (its UTF-8 bytes are the HMAC key):

- ``Svc-Signature: t=<t>,v1=<hex>[,v1=<hex>…]``: hex HMAC-SHA256 of ``<t>.<raw body>``;
- Standard Webhooks: ``webhook-id``, ``webhook-timestamp`` and
  ``webhook-signature: v1,<base64>[ v1,<base64>…]``: base64 HMAC-SHA256 of
  ``<id>.<timestamp>.<raw body>``.

One ``v1`` per signing secret: two while a secret rotates, so pass both of yours then.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from jobfair_api.webhook_events import WEBHOOK_EVENT_MODELS

Scheme = Literal["svc-signature", "standard-webhooks"]
_HEX64 = re.compile(r"^[0-9a-fA-F]{64}$")


class WebhookVerificationError(Exception):
    """The delivery is not signed with your secret, or its timestamp is too old or new."""


@dataclass(frozen=True)
class VerifiedWebhook:
    event: dict[str, Any]
    """The delivered body: ``{ id, type, created_at, data }``."""
    scheme: Scheme
    """Which signature was checked: ``Svc-Signature`` or Standard Webhooks."""

    def model(self) -> Any:
        """The event as its generated model (``MatchMatchedEvent``, …); see parse_event."""
        return parse_event(self.event)


def parse_event(event: Mapping[str, Any]) -> Any:
    """The event as the generated model of its type (jobfair_api.webhook_events); a type this
    version of the client does not know stays a dict, so a new event type never breaks you."""
    model = WEBHOOK_EVENT_MODELS.get(str(event.get("type")))
    return model.from_dict(dict(event)) if model else dict(event)


def _header(headers: Mapping[str, Any], name: str) -> str | None:
    for key, value in headers.items():
        if key.lower() == name:
            if isinstance(value, (list, tuple)):
                return ",".join(value)
            return str(value)
    return None


def _hmac(secret: str, *parts: bytes) -> bytes:
    mac = hmac.new(secret.encode("utf-8"), digestmod=hashlib.sha256)
    for part in parts:
        mac.update(part)
    return mac.digest()


def verify_webhook(
    payload: bytes | str,
    headers: Mapping[str, Any],
    secret: str | Sequence[str],
    *,
    tolerance_seconds: int = 300,
    now: float | None = None,
) -> VerifiedWebhook:
    """Verifies the delivery and returns its event; raises WebhookVerificationError.

    ``payload`` is the raw request body exactly as received (never re-serialised JSON);
    ``headers`` the request headers (any case); ``secret`` yours, or both while you rotate.
    ``Svc-Signature`` is checked when present, else the Standard Webhooks headers. Signatures are
    compared in constant time; the timestamp must be within ``tolerance_seconds`` of ``now``.
    """
    secrets = [secret] if isinstance(secret, str) else list(secret)
    body = payload.encode("utf-8") if isinstance(payload, str) else bytes(payload)
    current = time.time() if now is None else now

    def fresh(value: str | None) -> int:
        if value is None or not re.fullmatch(r"\d{1,12}", value.strip()):
            raise WebhookVerificationError("the timestamp is missing or malformed")
        t = int(value.strip())
        if abs(current - t) > tolerance_seconds:
            raise WebhookVerificationError("timestamp outside the tolerance")
        return t

    def event() -> dict[str, Any]:
        try:
            return json.loads(body.decode("utf-8"))
        except ValueError as err:
            raise WebhookVerificationError("the body is not JSON") from err

    svc = _header(headers, "svc-signature")
    if svc:
        parts = [p.strip().split("=", 1) for p in svc.split(",") if "=" in p]
        t = fresh(next((v for k, v in parts if k.strip() == "t"), None))
        given = [
            bytes.fromhex(v.strip())
            for k, v in parts
            if k.strip() == "v1" and _HEX64.match(v.strip())
        ]
        for s in secrets:
            expected = _hmac(s, f"{t}.".encode(), body)
            if any(hmac.compare_digest(g, expected) for g in given):
                return VerifiedWebhook(event(), "svc-signature")
        raise WebhookVerificationError("no Svc-Signature v1 value matches")

    msg_id = _header(headers, "webhook-id")
    timestamp = _header(headers, "webhook-timestamp")
    signature = _header(headers, "webhook-signature")
    if not msg_id or not timestamp or not signature:
        raise WebhookVerificationError(
            "neither Svc-Signature nor the Standard Webhooks headers are present"
        )
    t = fresh(timestamp)
    given = []
    for part in signature.split(" "):
        version, _, sig = part.partition(",")
        if version == "v1" and sig:
            try:
                given.append(base64.b64decode(sig, validate=True))
            except (binascii.Error, ValueError):
                continue
    for s in secrets:
        expected = _hmac(s, f"{msg_id}.{t}.".encode(), body)
        if any(hmac.compare_digest(g, expected) for g in given):
            return VerifiedWebhook(event(), "standard-webhooks")
    raise WebhookVerificationError("no webhook-signature v1 value matches")
