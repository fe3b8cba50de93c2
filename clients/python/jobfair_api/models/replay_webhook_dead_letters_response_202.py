from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.replay_webhook_dead_letters_response_202_replayed_item import (
        ReplayWebhookDeadLettersResponse202ReplayedItem,
    )


T = TypeVar("T", bound="ReplayWebhookDeadLettersResponse202")


@_attrs_define
class ReplayWebhookDeadLettersResponse202:
    """
    Attributes:
        replayed (list[ReplayWebhookDeadLettersResponse202ReplayedItem]):
        skipped (list[str]): Event ids whose delivery is already running again
        has_more (bool): More dead letters remain after this batch of 500: call again
    """

    replayed: list[ReplayWebhookDeadLettersResponse202ReplayedItem]
    skipped: list[str]
    has_more: bool

    def to_dict(self) -> dict[str, Any]:
        replayed = []
        for replayed_item_data in self.replayed:
            replayed_item = replayed_item_data.to_dict()
            replayed.append(replayed_item)

        skipped = self.skipped

        has_more = self.has_more

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "replayed": replayed,
                "skipped": skipped,
                "has_more": has_more,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.replay_webhook_dead_letters_response_202_replayed_item import (
            ReplayWebhookDeadLettersResponse202ReplayedItem,
        )

        d = dict(src_dict)
        replayed = []
        _replayed = d.pop("replayed")
        for replayed_item_data in _replayed:
            replayed_item = ReplayWebhookDeadLettersResponse202ReplayedItem.from_dict(
                replayed_item_data
            )

            replayed.append(replayed_item)

        skipped = cast(list[str], d.pop("skipped"))

        has_more = d.pop("has_more")

        replay_webhook_dead_letters_response_202 = cls(
            replayed=replayed,
            skipped=skipped,
            has_more=has_more,
        )

        return replay_webhook_dead_letters_response_202
