from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WaitEstimateInputType0")


@_attrs_define
class WaitEstimateInputType0:
    """
    Attributes:
        min_seconds (int | None): Lower bound; null: unknown
        max_seconds (int | None): Upper bound; null: unknown
        reason (str): What the range rests on, or why there is none
    """

    min_seconds: int | None
    max_seconds: int | None
    reason: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        min_seconds: int | None
        min_seconds = self.min_seconds

        max_seconds: int | None
        max_seconds = self.max_seconds

        reason = self.reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "min_seconds": min_seconds,
                "max_seconds": max_seconds,
                "reason": reason,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_min_seconds(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        min_seconds = _parse_min_seconds(d.pop("min_seconds"))

        def _parse_max_seconds(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        max_seconds = _parse_max_seconds(d.pop("max_seconds"))

        reason = d.pop("reason")

        wait_estimate_input_type_0 = cls(
            min_seconds=min_seconds,
            max_seconds=max_seconds,
            reason=reason,
        )

        wait_estimate_input_type_0.additional_properties = d
        return wait_estimate_input_type_0

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
