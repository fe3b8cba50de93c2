from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.billing_status_input_pending_authentication_type_0_interval import (
    BillingStatusInputPendingAuthenticationType0Interval,
)
from ..models.billing_status_input_pending_authentication_type_0_target_plan import (
    BillingStatusInputPendingAuthenticationType0TargetPlan,
)

T = TypeVar("T", bound="BillingStatusInputPendingAuthenticationType0")


@_attrs_define
class BillingStatusInputPendingAuthenticationType0:
    """
    Attributes:
        payment_id (str):
        target_plan (BillingStatusInputPendingAuthenticationType0TargetPlan):
        interval (BillingStatusInputPendingAuthenticationType0Interval):
        authentication_url (str):
    """

    payment_id: str
    target_plan: BillingStatusInputPendingAuthenticationType0TargetPlan
    interval: BillingStatusInputPendingAuthenticationType0Interval
    authentication_url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        payment_id = self.payment_id

        target_plan = self.target_plan.value

        interval = self.interval.value

        authentication_url = self.authentication_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
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

        target_plan = BillingStatusInputPendingAuthenticationType0TargetPlan(
            d.pop("target_plan")
        )

        interval = BillingStatusInputPendingAuthenticationType0Interval(
            d.pop("interval")
        )

        authentication_url = d.pop("authentication_url")

        billing_status_input_pending_authentication_type_0 = cls(
            payment_id=payment_id,
            target_plan=target_plan,
            interval=interval,
            authentication_url=authentication_url,
        )

        billing_status_input_pending_authentication_type_0.additional_properties = d
        return billing_status_input_pending_authentication_type_0

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
