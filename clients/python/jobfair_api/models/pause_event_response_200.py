from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.team_live_event import TeamLiveEvent


T = TypeVar("T", bound="PauseEventResponse200")


@_attrs_define
class PauseEventResponse200:
    """
    Attributes:
        event (TeamLiveEvent):
    """

    event: TeamLiveEvent

    def to_dict(self) -> dict[str, Any]:
        event = self.event.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "event": event,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.team_live_event import TeamLiveEvent

        d = dict(src_dict)
        event = TeamLiveEvent.from_dict(d.pop("event"))

        pause_event_response_200 = cls(
            event=event,
        )

        return pause_event_response_200
