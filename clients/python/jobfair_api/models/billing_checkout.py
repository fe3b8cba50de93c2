from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.billing_checkout_interval import BillingCheckoutInterval
from ..models.billing_checkout_mode import BillingCheckoutMode
from ..models.billing_checkout_plan import BillingCheckoutPlan

T = TypeVar("T", bound="BillingCheckout")


@_attrs_define
class BillingCheckout:
    """
    Attributes:
        id (str): Checkout session id
        mode (BillingCheckoutMode):
        url (None | str): Hosted mode: the page the human opens
        client_secret (None | str): Embedded mode: mounts the embedded form (Stripe.js `initEmbeddedCheckout`, or the
            local provider's form)
        plan (BillingCheckoutPlan):
        interval (BillingCheckoutInterval):
        amount (int):
        currency (str):
    """

    id: str
    mode: BillingCheckoutMode
    url: None | str
    client_secret: None | str
    plan: BillingCheckoutPlan
    interval: BillingCheckoutInterval
    amount: int
    currency: str

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

        mode = BillingCheckoutMode(d.pop("mode"))

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

        plan = BillingCheckoutPlan(d.pop("plan"))

        interval = BillingCheckoutInterval(d.pop("interval"))

        amount = d.pop("amount")

        currency = d.pop("currency")

        billing_checkout = cls(
            id=id,
            mode=mode,
            url=url,
            client_secret=client_secret,
            plan=plan,
            interval=interval,
            amount=amount,
            currency=currency,
        )

        return billing_checkout
