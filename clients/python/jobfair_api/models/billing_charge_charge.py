from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

T = TypeVar("T", bound="BillingChargeCharge")


@_attrs_define
class BillingChargeCharge:
    """
    Attributes:
        id (str):
        status (Literal['succeeded']):
        amount (int):
        currency (str):
        payment_id (str):
        invoice_id (str):
    """

    id: str
    status: Literal["succeeded"]
    amount: int
    currency: str
    payment_id: str
    invoice_id: str

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status = self.status

        amount = self.amount

        currency = self.currency

        payment_id = self.payment_id

        invoice_id = self.invoice_id

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "status": status,
                "amount": amount,
                "currency": currency,
                "payment_id": payment_id,
                "invoice_id": invoice_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        status = cast(Literal["succeeded"], d.pop("status"))
        if status != "succeeded":
            raise ValueError(f"status must match const 'succeeded', got '{status}'")

        amount = d.pop("amount")

        currency = d.pop("currency")

        payment_id = d.pop("payment_id")

        invoice_id = d.pop("invoice_id")

        billing_charge_charge = cls(
            id=id,
            status=status,
            amount=amount,
            currency=currency,
            payment_id=payment_id,
            invoice_id=invoice_id,
        )

        return billing_charge_charge
