from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.interview_completed_event_data import InterviewCompletedEventData


T = TypeVar("T", bound="InterviewCompletedEvent")


@_attrs_define
class InterviewCompletedEvent:
    """The interview of an accepted match has ended. The recruiter's report card is never in it.

    Attributes:
        id (str): The event id (`evt_…`); the same in every attempt and replay
        type_ (Literal['interview.completed']):
        created_at (int): When the event happened, Unix time in seconds
        data (InterviewCompletedEventData): The interview of an accepted match has ended. The recruiter's report card is
            never in it.
    """

    id: str
    type_: Literal["interview.completed"]
    created_at: int
    data: InterviewCompletedEventData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_

        created_at = self.created_at

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "type": type_,
                "created_at": created_at,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.interview_completed_event_data import InterviewCompletedEventData

        d = dict(src_dict)
        id = d.pop("id")

        type_ = cast(Literal["interview.completed"], d.pop("type"))
        if type_ != "interview.completed":
            raise ValueError(
                f"type must match const 'interview.completed', got '{type_}'"
            )

        created_at = d.pop("created_at")

        data = InterviewCompletedEventData.from_dict(d.pop("data"))

        interview_completed_event = cls(
            id=id,
            type_=type_,
            created_at=created_at,
            data=data,
        )

        interview_completed_event.additional_properties = d
        return interview_completed_event

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
