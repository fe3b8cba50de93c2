from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ReplayWebhookDeliveryResponse202Replayed")


@_attrs_define
class ReplayWebhookDeliveryResponse202Replayed:
    """
    Attributes:
        event_id (str):
        run (int):
    """

    event_id: str
    run: int

    def to_dict(self) -> dict[str, Any]:
        event_id = self.event_id

        run = self.run

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "event_id": event_id,
                "run": run,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        event_id = d.pop("event_id")

        run = d.pop("run")

        replay_webhook_delivery_response_202_replayed = cls(
            event_id=event_id,
            run=run,
        )

        return replay_webhook_delivery_response_202_replayed
