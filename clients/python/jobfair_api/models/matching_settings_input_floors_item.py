from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MatchingSettingsInputFloorsItem")


@_attrs_define
class MatchingSettingsInputFloorsItem:
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
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        after_seconds = self.after_seconds

        min_score = self.min_score

        essential_required = self.essential_required

        remote_mismatch_allowed = self.remote_mismatch_allowed

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
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

        matching_settings_input_floors_item = cls(
            after_seconds=after_seconds,
            min_score=min_score,
            essential_required=essential_required,
            remote_mismatch_allowed=remote_mismatch_allowed,
        )

        matching_settings_input_floors_item.additional_properties = d
        return matching_settings_input_floors_item

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
