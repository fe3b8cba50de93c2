from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_test_result_input_state import WebhookTestResultInputState

if TYPE_CHECKING:
    from ..models.webhook_test_result_input_attempt_type_0 import (
        WebhookTestResultInputAttemptType0,
    )
    from ..models.webhook_test_result_input_event import WebhookTestResultInputEvent


T = TypeVar("T", bound="WebhookTestResultInput")


@_attrs_define
class WebhookTestResultInput:
    """
    Attributes:
        event (WebhookTestResultInputEvent):
        state (WebhookTestResultInputState): `delivered`; `retrying` (the first attempt failed, retries follow the
            schedule); `pending` (no attempt within WEBHOOK_TEST_WAIT_MS: accepted, the attempt follows — see the deliveries
            log); `not_accepted_paused`; `oversize`; `cancelled`
        attempt (None | WebhookTestResultInputAttemptType0):
    """

    event: WebhookTestResultInputEvent
    state: WebhookTestResultInputState
    attempt: None | WebhookTestResultInputAttemptType0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_test_result_input_attempt_type_0 import (
            WebhookTestResultInputAttemptType0,
        )

        event = self.event.to_dict()

        state = self.state.value

        attempt: dict[str, Any] | None
        if isinstance(self.attempt, WebhookTestResultInputAttemptType0):
            attempt = self.attempt.to_dict()
        else:
            attempt = self.attempt

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event": event,
                "state": state,
                "attempt": attempt,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_test_result_input_attempt_type_0 import (
            WebhookTestResultInputAttemptType0,
        )
        from ..models.webhook_test_result_input_event import WebhookTestResultInputEvent

        d = dict(src_dict)
        event = WebhookTestResultInputEvent.from_dict(d.pop("event"))

        state = WebhookTestResultInputState(d.pop("state"))

        def _parse_attempt(data: object) -> None | WebhookTestResultInputAttemptType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                attempt_type_0 = WebhookTestResultInputAttemptType0.from_dict(data)

                return attempt_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | WebhookTestResultInputAttemptType0, data)

        attempt = _parse_attempt(d.pop("attempt"))

        webhook_test_result_input = cls(
            event=event,
            state=state,
            attempt=attempt,
        )

        webhook_test_result_input.additional_properties = d
        return webhook_test_result_input

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
