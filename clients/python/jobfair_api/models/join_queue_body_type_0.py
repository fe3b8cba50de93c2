from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="JoinQueueBodyType0")


@_attrs_define
class JoinQueueBodyType0:
    """
    Attributes:
        live_event_slug (str | Unset): Join the queue of this live event; omit for any event
        event_id (str | Unset): Alias from the step-by-step guide: an event slug or id
    """

    live_event_slug: str | Unset = UNSET
    event_id: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        live_event_slug = self.live_event_slug

        event_id = self.event_id

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if live_event_slug is not UNSET:
            field_dict["live_event_slug"] = live_event_slug
        if event_id is not UNSET:
            field_dict["event_id"] = event_id

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        live_event_slug = d.pop("live_event_slug", UNSET)

        event_id = d.pop("event_id", UNSET)

        join_queue_body_type_0 = cls(
            live_event_slug=live_event_slug,
            event_id=event_id,
        )

        return join_queue_body_type_0
