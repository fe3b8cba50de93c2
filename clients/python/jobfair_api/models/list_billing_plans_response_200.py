from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.list_billing_plans_response_200_intervals_item import (
    ListBillingPlansResponse200IntervalsItem,
)

if TYPE_CHECKING:
    from ..models.billing_plan import BillingPlan


T = TypeVar("T", bound="ListBillingPlansResponse200")


@_attrs_define
class ListBillingPlansResponse200:
    """
    Attributes:
        plans (list[BillingPlan]):
        intervals (list[ListBillingPlansResponse200IntervalsItem]):
    """

    plans: list[BillingPlan]
    intervals: list[ListBillingPlansResponse200IntervalsItem]

    def to_dict(self) -> dict[str, Any]:
        plans = []
        for plans_item_data in self.plans:
            plans_item = plans_item_data.to_dict()
            plans.append(plans_item)

        intervals = []
        for intervals_item_data in self.intervals:
            intervals_item = intervals_item_data.value
            intervals.append(intervals_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "plans": plans,
                "intervals": intervals,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.billing_plan import BillingPlan

        d = dict(src_dict)
        plans = []
        _plans = d.pop("plans")
        for plans_item_data in _plans:
            plans_item = BillingPlan.from_dict(plans_item_data)

            plans.append(plans_item)

        intervals = []
        _intervals = d.pop("intervals")
        for intervals_item_data in _intervals:
            intervals_item = ListBillingPlansResponse200IntervalsItem(
                intervals_item_data
            )

            intervals.append(intervals_item)

        list_billing_plans_response_200 = cls(
            plans=plans,
            intervals=intervals,
        )

        return list_billing_plans_response_200
