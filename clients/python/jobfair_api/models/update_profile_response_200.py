from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

T = TypeVar("T", bound="UpdateProfileResponse200")


@_attrs_define
class UpdateProfileResponse200:
    """
    Attributes:
        profile_id (UUID):
    """

    profile_id: UUID

    def to_dict(self) -> dict[str, Any]:
        profile_id = str(self.profile_id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "profile_id": profile_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        profile_id = UUID(d.pop("profile_id"))

        update_profile_response_200 = cls(
            profile_id=profile_id,
        )

        return update_profile_response_200
