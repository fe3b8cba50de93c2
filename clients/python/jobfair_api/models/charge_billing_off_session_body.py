from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.charge_billing_off_session_body_interval import (
    ChargeBillingOffSessionBodyInterval,
)
from ..models.charge_billing_off_session_body_target_plan import (
    ChargeBillingOffSessionBodyTargetPlan,
)

T = TypeVar("T", bound="ChargeBillingOffSessionBody")


@_attrs_define
class ChargeBillingOffSessionBody:
    """
    Attributes:
        target_plan (ChargeBillingOffSessionBodyTargetPlan): The plan to move to
        interval (ChargeBillingOffSessionBodyInterval): Its billing interval
    """

    target_plan: ChargeBillingOffSessionBodyTargetPlan
    interval: ChargeBillingOffSessionBodyInterval

    def to_dict(self) -> dict[str, Any]:
        target_plan = self.target_plan.value

        interval = self.interval.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "target_plan": target_plan,
                "interval": interval,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        target_plan = ChargeBillingOffSessionBodyTargetPlan(d.pop("target_plan"))

        interval = ChargeBillingOffSessionBodyInterval(d.pop("interval"))

        charge_billing_off_session_body = cls(
            target_plan=target_plan,
            interval=interval,
        )

        return charge_billing_off_session_body
