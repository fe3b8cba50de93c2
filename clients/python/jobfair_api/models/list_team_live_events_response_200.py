from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.team_live_event import TeamLiveEvent


T = TypeVar("T", bound="ListTeamLiveEventsResponse200")


@_attrs_define
class ListTeamLiveEventsResponse200:
    """
    Attributes:
        data (list[TeamLiveEvent]):
        has_more (bool):
        next_cursor (str | Unset): Present when has_more is true
    """

    data: list[TeamLiveEvent]
    has_more: bool
    next_cursor: str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        data = []
        for data_item_data in self.data:
            data_item = data_item_data.to_dict()
            data.append(data_item)

        has_more = self.has_more

        next_cursor = self.next_cursor

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "data": data,
                "has_more": has_more,
            }
        )
        if next_cursor is not UNSET:
            field_dict["next_cursor"] = next_cursor

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.team_live_event import TeamLiveEvent

        d = dict(src_dict)
        data = []
        _data = d.pop("data")
        for data_item_data in _data:
            data_item = TeamLiveEvent.from_dict(data_item_data)

            data.append(data_item)

        has_more = d.pop("has_more")

        next_cursor = d.pop("next_cursor", UNSET)

        list_team_live_events_response_200 = cls(
            data=data,
            has_more=has_more,
            next_cursor=next_cursor,
        )

        return list_team_live_events_response_200
