from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.billing_charge_input_charge import BillingChargeInputCharge
    from ..models.billing_status_input import BillingStatusInput


T = TypeVar("T", bound="BillingChargeInput")


@_attrs_define
class BillingChargeInput:
    """
    Attributes:
        charge (BillingChargeInputCharge):
        billing (BillingStatusInput):
    """

    charge: BillingChargeInputCharge
    billing: BillingStatusInput
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        charge = self.charge.to_dict()

        billing = self.billing.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "charge": charge,
                "billing": billing,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.billing_charge_input_charge import BillingChargeInputCharge
        from ..models.billing_status_input import BillingStatusInput

        d = dict(src_dict)
        charge = BillingChargeInputCharge.from_dict(d.pop("charge"))

        billing = BillingStatusInput.from_dict(d.pop("billing"))

        billing_charge_input = cls(
            charge=charge,
            billing=billing,
        )

        billing_charge_input.additional_properties = d
        return billing_charge_input

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
