from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="RecruiterAvailability")


@_attrs_define
class RecruiterAvailability:
    """
    Attributes:
        user_id (UUID):
        display_name (str):
        available (bool): Receives new offers; an unavailable recruiter keeps the open ones
        capacity (int): Concurrent interviews (open offers and matches not ended) at this event
        active (int): Open offers and matches not ended that name this recruiter
        last_offered_at (datetime.datetime | None): Round-robin key: the least recent goes first
        updated_at (datetime.datetime):
    """

    user_id: UUID
    display_name: str
    available: bool
    capacity: int
    active: int
    last_offered_at: datetime.datetime | None
    updated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        user_id = str(self.user_id)

        display_name = self.display_name

        available = self.available

        capacity = self.capacity

        active = self.active

        last_offered_at: None | str
        if isinstance(self.last_offered_at, datetime.datetime):
            last_offered_at = self.last_offered_at.isoformat()
        else:
            last_offered_at = self.last_offered_at

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user_id": user_id,
                "display_name": display_name,
                "available": available,
                "capacity": capacity,
                "active": active,
                "last_offered_at": last_offered_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        user_id = UUID(d.pop("user_id"))

        display_name = d.pop("display_name")

        available = d.pop("available")

        capacity = d.pop("capacity")

        active = d.pop("active")

        def _parse_last_offered_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_offered_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_offered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        last_offered_at = _parse_last_offered_at(d.pop("last_offered_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        recruiter_availability = cls(
            user_id=user_id,
            display_name=display_name,
            available=available,
            capacity=capacity,
            active=active,
            last_offered_at=last_offered_at,
            updated_at=updated_at,
        )

        return recruiter_availability
