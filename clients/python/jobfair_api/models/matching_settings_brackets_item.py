from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="MatchingSettingsBracketsItem")


@_attrs_define
class MatchingSettingsBracketsItem:
    """
    Attributes:
        after_seconds (int):
        relax_points (int):
        essential_required (bool):
    """

    after_seconds: int
    relax_points: int
    essential_required: bool

    def to_dict(self) -> dict[str, Any]:
        after_seconds = self.after_seconds

        relax_points = self.relax_points

        essential_required = self.essential_required

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "after_seconds": after_seconds,
                "relax_points": relax_points,
                "essential_required": essential_required,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        after_seconds = d.pop("after_seconds")

        relax_points = d.pop("relax_points")

        essential_required = d.pop("essential_required")

        matching_settings_brackets_item = cls(
            after_seconds=after_seconds,
            relax_points=relax_points,
            essential_required=essential_required,
        )

        return matching_settings_brackets_item
