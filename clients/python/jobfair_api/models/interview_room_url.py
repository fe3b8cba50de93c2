from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="InterviewRoomUrl")


@_attrs_define
class InterviewRoomUrl:
    """
    Attributes:
        room_url (str): Opens the interview room for the calling party; hand it to the human
        expires_at (datetime.datetime):
    """

    room_url: str
    expires_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        room_url = self.room_url

        expires_at = self.expires_at.isoformat()

        field_dict: dict[str, Any] = {}

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

        interview_room_url = cls(
            room_url=room_url,
            expires_at=expires_at,
        )

        return interview_room_url
