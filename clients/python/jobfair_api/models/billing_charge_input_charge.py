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
from attrs import field as _attrs_field

T = TypeVar("T", bound="BillingChargeInputCharge")


@_attrs_define
class BillingChargeInputCharge:
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
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        status = self.status

        amount = self.amount

        currency = self.currency

        payment_id = self.payment_id

        invoice_id = self.invoice_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
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

        billing_charge_input_charge = cls(
            id=id,
            status=status,
            amount=amount,
            currency=currency,
            payment_id=payment_id,
            invoice_id=invoice_id,
        )

        billing_charge_input_charge.additional_properties = d
        return billing_charge_input_charge

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
