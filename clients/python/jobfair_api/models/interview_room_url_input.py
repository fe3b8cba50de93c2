from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="InterviewRoomUrlInput")


@_attrs_define
class InterviewRoomUrlInput:
    """
    Attributes:
        room_url (str): Opens the interview room for the calling party; hand it to the human
        expires_at (datetime.datetime):
    """

    room_url: str
    expires_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        room_url = self.room_url

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "room_url": room_url,
                "expires_at": expires_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        room_url = d.pop("room_url")

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        interview_room_url_input = cls(
            room_url=room_url,
            expires_at=expires_at,
        )

        interview_room_url_input.additional_properties = d
        return interview_room_url_input

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
