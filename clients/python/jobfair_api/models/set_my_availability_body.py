from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SetMyAvailabilityBody")


@_attrs_define
class SetMyAvailabilityBody:
    """
    Attributes:
        available (bool):
        capacity (int | Unset):
    """

    available: bool
    capacity: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        available = self.available

        capacity = self.capacity

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "available": available,
            }
        )
        if capacity is not UNSET:
            field_dict["capacity"] = capacity

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        available = d.pop("available")

        capacity = d.pop("capacity", UNSET)

        set_my_availability_body = cls(
            available=available,
            capacity=capacity,
        )

        return set_my_availability_body
