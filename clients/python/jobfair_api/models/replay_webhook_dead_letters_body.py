from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="ReplayWebhookDeadLettersBody")


@_attrs_define
class ReplayWebhookDeadLettersBody:
    """
    Attributes:
        since (datetime.datetime): ISO 8601 with offset, e.g. 2026-11-21T00:00:00Z
    """

    since: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        since = self.since.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "since": since,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        since = datetime.datetime.fromisoformat(d.pop("since"))

        replay_webhook_dead_letters_body = cls(
            since=since,
        )

        return replay_webhook_dead_letters_body
