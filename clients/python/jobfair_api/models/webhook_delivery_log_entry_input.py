from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_delivery_log_entry_input_outcome import (
    WebhookDeliveryLogEntryInputOutcome,
)
from ..models.webhook_delivery_log_entry_input_state import (
    WebhookDeliveryLogEntryInputState,
)

T = TypeVar("T", bound="WebhookDeliveryLogEntryInput")


@_attrs_define
class WebhookDeliveryLogEntryInput:
    """
    Attributes:
        delivery_id (str): `dlv_…`: the Svc-Delivery-Id of this attempt (or the id of a not-sent outcome)
        event_id (str):
        event_type (str):
        run (int): 1 for the original delivery, 2+ for replays
        attempt (int | None): 1 = first try, 2–6 = retries 1–5; null when no request was made
        attempted_at (datetime.datetime):
        outcome (WebhookDeliveryLogEntryInputOutcome):
        http_status (int | None):
        error_kind (None | str): timeout, connection_refused, connection_reset, dns_error, tls_error, network_error,
            blocked_address, redirect_not_followed, http_error, attempt_failed; for not-sent rows not_accepted_paused,
            oversize, subscription_paused, subscription_disabled, subscription_deleted
        latency_ms (int | None):
        response_snippet (None | str): First characters of the response body
        state (WebhookDeliveryLogEntryInputState): The delivery's current (final once finished) state
    """

    delivery_id: str
    event_id: str
    event_type: str
    run: int
    attempt: int | None
    attempted_at: datetime.datetime
    outcome: WebhookDeliveryLogEntryInputOutcome
    http_status: int | None
    error_kind: None | str
    latency_ms: int | None
    response_snippet: None | str
    state: WebhookDeliveryLogEntryInputState
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        delivery_id = self.delivery_id

        event_id = self.event_id

        event_type = self.event_type

        run = self.run

        attempt: int | None
        attempt = self.attempt

        attempted_at = self.attempted_at.isoformat()

        outcome = self.outcome.value

        http_status: int | None
        http_status = self.http_status

        error_kind: None | str
        error_kind = self.error_kind

        latency_ms: int | None
        latency_ms = self.latency_ms

        response_snippet: None | str
        response_snippet = self.response_snippet

        state = self.state.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "delivery_id": delivery_id,
                "event_id": event_id,
                "event_type": event_type,
                "run": run,
                "attempt": attempt,
                "attempted_at": attempted_at,
                "outcome": outcome,
                "http_status": http_status,
                "error_kind": error_kind,
                "latency_ms": latency_ms,
                "response_snippet": response_snippet,
                "state": state,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        delivery_id = d.pop("delivery_id")

        event_id = d.pop("event_id")

        event_type = d.pop("event_type")

        run = d.pop("run")

        def _parse_attempt(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        attempt = _parse_attempt(d.pop("attempt"))

        attempted_at = datetime.datetime.fromisoformat(d.pop("attempted_at"))

        outcome = WebhookDeliveryLogEntryInputOutcome(d.pop("outcome"))

        def _parse_http_status(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        http_status = _parse_http_status(d.pop("http_status"))

        def _parse_error_kind(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        error_kind = _parse_error_kind(d.pop("error_kind"))

        def _parse_latency_ms(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        latency_ms = _parse_latency_ms(d.pop("latency_ms"))

        def _parse_response_snippet(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        response_snippet = _parse_response_snippet(d.pop("response_snippet"))

        state = WebhookDeliveryLogEntryInputState(d.pop("state"))

        webhook_delivery_log_entry_input = cls(
            delivery_id=delivery_id,
            event_id=event_id,
            event_type=event_type,
            run=run,
            attempt=attempt,
            attempted_at=attempted_at,
            outcome=outcome,
            http_status=http_status,
            error_kind=error_kind,
            latency_ms=latency_ms,
            response_snippet=response_snippet,
            state=state,
        )

        webhook_delivery_log_entry_input.additional_properties = d
        return webhook_delivery_log_entry_input

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
