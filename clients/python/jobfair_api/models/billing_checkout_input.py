from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.billing_checkout_input_interval import BillingCheckoutInputInterval
from ..models.billing_checkout_input_mode import BillingCheckoutInputMode
from ..models.billing_checkout_input_plan import BillingCheckoutInputPlan

T = TypeVar("T", bound="BillingCheckoutInput")


@_attrs_define
class BillingCheckoutInput:
    """
    Attributes:
        id (str): Checkout session id
        mode (BillingCheckoutInputMode):
        url (None | str): Hosted mode: the page the human opens
        client_secret (None | str): Embedded mode: mounts the embedded form (Stripe.js `initEmbeddedCheckout`, or the
            local provider's form)
        plan (BillingCheckoutInputPlan):
        interval (BillingCheckoutInputInterval):
        amount (int):
        currency (str):
    """

    id: str
    mode: BillingCheckoutInputMode
    url: None | str
    client_secret: None | str
    plan: BillingCheckoutInputPlan
    interval: BillingCheckoutInputInterval
    amount: int
    currency: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        mode = self.mode.value

        url: None | str
        url = self.url

        client_secret: None | str
        client_secret = self.client_secret

        plan = self.plan.value

        interval = self.interval.value

        amount = self.amount

        currency = self.currency

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "mode": mode,
                "url": url,
                "client_secret": client_secret,
                "plan": plan,
                "interval": interval,
                "amount": amount,
                "currency": currency,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        mode = BillingCheckoutInputMode(d.pop("mode"))

        def _parse_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        url = _parse_url(d.pop("url"))

        def _parse_client_secret(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        client_secret = _parse_client_secret(d.pop("client_secret"))

        plan = BillingCheckoutInputPlan(d.pop("plan"))

        interval = BillingCheckoutInputInterval(d.pop("interval"))

        amount = d.pop("amount")

        currency = d.pop("currency")

        billing_checkout_input = cls(
            id=id,
            mode=mode,
            url=url,
            client_secret=client_secret,
            plan=plan,
            interval=interval,
            amount=amount,
            currency=currency,
        )

        billing_checkout_input.additional_properties = d
        return billing_checkout_input

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
