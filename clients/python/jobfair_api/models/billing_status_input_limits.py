from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="BillingStatusInputLimits")


@_attrs_define
class BillingStatusInputLimits:
    """
    Attributes:
        live_events (int | None):
        seats (int | None):
    """

    live_events: int | None
    seats: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        live_events: int | None
        live_events = self.live_events

        seats: int | None
        seats = self.seats

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "live_events": live_events,
                "seats": seats,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_live_events(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        live_events = _parse_live_events(d.pop("live_events"))

        def _parse_seats(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        seats = _parse_seats(d.pop("seats"))

        billing_status_input_limits = cls(
            live_events=live_events,
            seats=seats,
        )

        billing_status_input_limits.additional_properties = d
        return billing_status_input_limits

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
