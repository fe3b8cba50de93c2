from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.billing_status_pending_authentication_type_0_interval import (
    BillingStatusPendingAuthenticationType0Interval,
)
from ..models.billing_status_pending_authentication_type_0_target_plan import (
    BillingStatusPendingAuthenticationType0TargetPlan,
)

T = TypeVar("T", bound="BillingStatusPendingAuthenticationType0")


@_attrs_define
class BillingStatusPendingAuthenticationType0:
    """
    Attributes:
        payment_id (str):
        target_plan (BillingStatusPendingAuthenticationType0TargetPlan):
        interval (BillingStatusPendingAuthenticationType0Interval):
        authentication_url (str):
    """

    payment_id: str
    target_plan: BillingStatusPendingAuthenticationType0TargetPlan
    interval: BillingStatusPendingAuthenticationType0Interval
    authentication_url: str

    def to_dict(self) -> dict[str, Any]:
        payment_id = self.payment_id

        target_plan = self.target_plan.value

        interval = self.interval.value

        authentication_url = self.authentication_url

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "payment_id": payment_id,
                "target_plan": target_plan,
                "interval": interval,
                "authentication_url": authentication_url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        payment_id = d.pop("payment_id")

        target_plan = BillingStatusPendingAuthenticationType0TargetPlan(
            d.pop("target_plan")
        )

        interval = BillingStatusPendingAuthenticationType0Interval(d.pop("interval"))

        authentication_url = d.pop("authentication_url")

        billing_status_pending_authentication_type_0 = cls(
            payment_id=payment_id,
            target_plan=target_plan,
            interval=interval,
            authentication_url=authentication_url,
        )

        return billing_status_pending_authentication_type_0
