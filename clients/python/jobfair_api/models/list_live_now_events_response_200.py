from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.live_event import LiveEvent


T = TypeVar("T", bound="ListLiveNowEventsResponse200")


@_attrs_define
class ListLiveNowEventsResponse200:
    """
    Attributes:
        events (list[LiveEvent]):
        generated_at (datetime.datetime):
    """

    events: list[LiveEvent]
    generated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        events = []
        for events_item_data in self.events:
            events_item = events_item_data.to_dict()
            events.append(events_item)

        generated_at = self.generated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "events": events,
                "generated_at": generated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.live_event import LiveEvent

        d = dict(src_dict)
        events = []
        _events = d.pop("events")
        for events_item_data in _events:
            events_item = LiveEvent.from_dict(events_item_data)

            events.append(events_item)

        generated_at = datetime.datetime.fromisoformat(d.pop("generated_at"))

        list_live_now_events_response_200 = cls(
            events=events,
            generated_at=generated_at,
        )

        return list_live_now_events_response_200
