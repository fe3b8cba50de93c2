from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="BillingPlanLimits")


@_attrs_define
class BillingPlanLimits:
    """
    Attributes:
        live_events (int | None): Live (or paused) events at once; null = unlimited
        seats (int | None): Recruiters in the team; null = unlimited
    """

    live_events: int | None
    seats: int | None

    def to_dict(self) -> dict[str, Any]:
        live_events: int | None
        live_events = self.live_events

        seats: int | None
        seats = self.seats

        field_dict: dict[str, Any] = {}

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

        billing_plan_limits = cls(
            live_events=live_events,
            seats=seats,
        )

        return billing_plan_limits
