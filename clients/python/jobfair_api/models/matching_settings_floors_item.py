from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="MatchingSettingsFloorsItem")


@_attrs_define
class MatchingSettingsFloorsItem:
    """
    Attributes:
        after_seconds (int):
        min_score (int):
        essential_required (bool):
        remote_mismatch_allowed (bool):
    """

    after_seconds: int
    min_score: int
    essential_required: bool
    remote_mismatch_allowed: bool

    def to_dict(self) -> dict[str, Any]:
        after_seconds = self.after_seconds

        min_score = self.min_score

        essential_required = self.essential_required

        remote_mismatch_allowed = self.remote_mismatch_allowed

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "after_seconds": after_seconds,
                "min_score": min_score,
                "essential_required": essential_required,
                "remote_mismatch_allowed": remote_mismatch_allowed,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        after_seconds = d.pop("after_seconds")

        min_score = d.pop("min_score")

        essential_required = d.pop("essential_required")

        remote_mismatch_allowed = d.pop("remote_mismatch_allowed")

        matching_settings_floors_item = cls(
            after_seconds=after_seconds,
            min_score=min_score,
            essential_required=essential_required,
            remote_mismatch_allowed=remote_mismatch_allowed,
        )

        return matching_settings_floors_item
