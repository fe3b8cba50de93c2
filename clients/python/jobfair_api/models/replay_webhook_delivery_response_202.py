from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.replay_webhook_delivery_response_202_replayed import (
        ReplayWebhookDeliveryResponse202Replayed,
    )


T = TypeVar("T", bound="ReplayWebhookDeliveryResponse202")


@_attrs_define
class ReplayWebhookDeliveryResponse202:
    """
    Attributes:
        replayed (ReplayWebhookDeliveryResponse202Replayed):
    """

    replayed: ReplayWebhookDeliveryResponse202Replayed

    def to_dict(self) -> dict[str, Any]:
        replayed = self.replayed.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "replayed": replayed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.replay_webhook_delivery_response_202_replayed import (
            ReplayWebhookDeliveryResponse202Replayed,
        )

        d = dict(src_dict)
        replayed = ReplayWebhookDeliveryResponse202Replayed.from_dict(d.pop("replayed"))

        replay_webhook_delivery_response_202 = cls(
            replayed=replayed,
        )

        return replay_webhook_delivery_response_202
