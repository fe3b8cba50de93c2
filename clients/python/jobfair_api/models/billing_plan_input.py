from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.billing_plan_input_id import BillingPlanInputId

if TYPE_CHECKING:
    from ..models.billing_plan_input_limits import BillingPlanInputLimits
    from ..models.billing_plan_input_prices import BillingPlanInputPrices


T = TypeVar("T", bound="BillingPlanInput")


@_attrs_define
class BillingPlanInput:
    """
    Attributes:
        id (BillingPlanInputId):
        name (str):
        limits (BillingPlanInputLimits):
        prices (BillingPlanInputPrices):
        currency (str):
    """

    id: BillingPlanInputId
    name: str
    limits: BillingPlanInputLimits
    prices: BillingPlanInputPrices
    currency: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id.value

        name = self.name

        limits = self.limits.to_dict()

        prices = self.prices.to_dict()

        currency = self.currency

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
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
        from ..models.billing_plan_input_limits import BillingPlanInputLimits
        from ..models.billing_plan_input_prices import BillingPlanInputPrices

        d = dict(src_dict)
        id = BillingPlanInputId(d.pop("id"))

        name = d.pop("name")

        limits = BillingPlanInputLimits.from_dict(d.pop("limits"))

        prices = BillingPlanInputPrices.from_dict(d.pop("prices"))

        currency = d.pop("currency")

        billing_plan_input = cls(
            id=id,
            name=name,
            limits=limits,
            prices=prices,
            currency=currency,
        )

        billing_plan_input.additional_properties = d
        return billing_plan_input

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
