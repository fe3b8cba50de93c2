from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MatchingSettingsInputBracketsItem")


@_attrs_define
class MatchingSettingsInputBracketsItem:
    """
    Attributes:
        after_seconds (int):
        relax_points (int):
        essential_required (bool):
    """

    after_seconds: int
    relax_points: int
    essential_required: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        after_seconds = self.after_seconds

        relax_points = self.relax_points

        essential_required = self.essential_required

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
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

        matching_settings_input_brackets_item = cls(
            after_seconds=after_seconds,
            relax_points=relax_points,
            essential_required=essential_required,
        )

        matching_settings_input_brackets_item.additional_properties = d
        return matching_settings_input_brackets_item

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
