from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.billing_plan_id import BillingPlanId

if TYPE_CHECKING:
    from ..models.billing_plan_limits import BillingPlanLimits
    from ..models.billing_plan_prices import BillingPlanPrices


T = TypeVar("T", bound="BillingPlan")


@_attrs_define
class BillingPlan:
    """
    Attributes:
        id (BillingPlanId):
        name (str):
        limits (BillingPlanLimits):
        prices (BillingPlanPrices):
        currency (str):
    """

    id: BillingPlanId
    name: str
    limits: BillingPlanLimits
    prices: BillingPlanPrices
    currency: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id.value

        name = self.name

        limits = self.limits.to_dict()

        prices = self.prices.to_dict()

        currency = self.currency

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "name": name,
                "limits": limits,
                "prices": prices,
                "currency": currency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.billing_plan_limits import BillingPlanLimits
        from ..models.billing_plan_prices import BillingPlanPrices

        d = dict(src_dict)
        id = BillingPlanId(d.pop("id"))

        name = d.pop("name")

        limits = BillingPlanLimits.from_dict(d.pop("limits"))

        prices = BillingPlanPrices.from_dict(d.pop("prices"))

        currency = d.pop("currency")

        billing_plan = cls(
            id=id,
            name=name,
            limits=limits,
            prices=prices,
            currency=currency,
        )

        return billing_plan
