from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.webhook_test_result_state import WebhookTestResultState

if TYPE_CHECKING:
    from ..models.webhook_test_result_attempt_type_0 import (
        WebhookTestResultAttemptType0,
    )
    from ..models.webhook_test_result_event import WebhookTestResultEvent


T = TypeVar("T", bound="WebhookTestResult")


@_attrs_define
class WebhookTestResult:
    """
    Attributes:
        event (WebhookTestResultEvent):
        state (WebhookTestResultState): `delivered`; `retrying` (the first attempt failed, retries follow the schedule);
            `pending` (no attempt within WEBHOOK_TEST_WAIT_MS: accepted, the attempt follows — see the deliveries log);
            `not_accepted_paused`; `oversize`; `cancelled`
        attempt (None | WebhookTestResultAttemptType0):
    """

    event: WebhookTestResultEvent
    state: WebhookTestResultState
    attempt: None | WebhookTestResultAttemptType0

    def to_dict(self) -> dict[str, Any]:
        from ..models.webhook_test_result_attempt_type_0 import (
            WebhookTestResultAttemptType0,
        )

        event = self.event.to_dict()

        state = self.state.value

        attempt: dict[str, Any] | None
        if isinstance(self.attempt, WebhookTestResultAttemptType0):
            attempt = self.attempt.to_dict()
        else:
            attempt = self.attempt

        field_dict: dict[str, Any] = {}

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
        from ..models.webhook_test_result_attempt_type_0 import (
            WebhookTestResultAttemptType0,
        )
        from ..models.webhook_test_result_event import WebhookTestResultEvent

        d = dict(src_dict)
        event = WebhookTestResultEvent.from_dict(d.pop("event"))

        state = WebhookTestResultState(d.pop("state"))

        def _parse_attempt(data: object) -> None | WebhookTestResultAttemptType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                attempt_type_0 = WebhookTestResultAttemptType0.from_dict(data)

                return attempt_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | WebhookTestResultAttemptType0, data)

        attempt = _parse_attempt(d.pop("attempt"))

        webhook_test_result = cls(
            event=event,
            state=state,
            attempt=attempt,
        )

        return webhook_test_result
