from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.billing_charge_charge import BillingChargeCharge
    from ..models.billing_status import BillingStatus


T = TypeVar("T", bound="BillingCharge")


@_attrs_define
class BillingCharge:
    """
    Attributes:
        charge (BillingChargeCharge):
        billing (BillingStatus):
    """

    charge: BillingChargeCharge
    billing: BillingStatus

    def to_dict(self) -> dict[str, Any]:
        charge = self.charge.to_dict()

        billing = self.billing.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "charge": charge,
                "billing": billing,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.billing_charge_charge import BillingChargeCharge
        from ..models.billing_status import BillingStatus

        d = dict(src_dict)
        charge = BillingChargeCharge.from_dict(d.pop("charge"))

        billing = BillingStatus.from_dict(d.pop("billing"))

        billing_charge = cls(
            charge=charge,
            billing=billing,
        )

        return billing_charge
