from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.billing_status import BillingStatus


T = TypeVar("T", bound="CancelBillingPlanResponse200")


@_attrs_define
class CancelBillingPlanResponse200:
    """
    Attributes:
        billing (BillingStatus):
    """

    billing: BillingStatus

    def to_dict(self) -> dict[str, Any]:
        billing = self.billing.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "billing": billing,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.billing_status import BillingStatus

        d = dict(src_dict)
        billing = BillingStatus.from_dict(d.pop("billing"))

        cancel_billing_plan_response_200 = cls(
            billing=billing,
        )

        return cancel_billing_plan_response_200
