from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="BillingPlanPrices")


@_attrs_define
class BillingPlanPrices:
    """
    Attributes:
        month (int): Smallest currency unit
        year (int):
    """

    month: int
    year: int

    def to_dict(self) -> dict[str, Any]:
        month = self.month

        year = self.year

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "month": month,
                "year": year,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        month = d.pop("month")

        year = d.pop("year")

        billing_plan_prices = cls(
            month=month,
            year=year,
        )

        return billing_plan_prices
