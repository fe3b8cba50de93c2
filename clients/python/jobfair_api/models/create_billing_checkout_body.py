from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.create_billing_checkout_body_interval import (
    CreateBillingCheckoutBodyInterval,
)
from ..models.create_billing_checkout_body_mode import CreateBillingCheckoutBodyMode
from ..models.create_billing_checkout_body_plan import CreateBillingCheckoutBodyPlan
from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateBillingCheckoutBody")


@_attrs_define
class CreateBillingCheckoutBody:
    """
    Attributes:
        mode (CreateBillingCheckoutBodyMode): `hosted`: answer a `url` to open; `embedded`: answer a `client_secret` for
            the embedded form
        plan (CreateBillingCheckoutBodyPlan | Unset): Plan to buy (default pro) Default:
            CreateBillingCheckoutBodyPlan.PRO.
        interval (CreateBillingCheckoutBodyInterval | Unset): Billing interval (default month) Default:
            CreateBillingCheckoutBodyInterval.MONTH.
    """

    mode: CreateBillingCheckoutBodyMode
    plan: CreateBillingCheckoutBodyPlan | Unset = CreateBillingCheckoutBodyPlan.PRO
    interval: CreateBillingCheckoutBodyInterval | Unset = (
        CreateBillingCheckoutBodyInterval.MONTH
    )

    def to_dict(self) -> dict[str, Any]:
        mode = self.mode.value

        plan: str | Unset = UNSET
        if not isinstance(self.plan, Unset):
            plan = self.plan.value

        interval: str | Unset = UNSET
        if not isinstance(self.interval, Unset):
            interval = self.interval.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "mode": mode,
            }
        )
        if plan is not UNSET:
            field_dict["plan"] = plan
        if interval is not UNSET:
            field_dict["interval"] = interval

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        mode = CreateBillingCheckoutBodyMode(d.pop("mode"))

        _plan = d.pop("plan", UNSET)
        plan: CreateBillingCheckoutBodyPlan | Unset
        if isinstance(_plan, Unset):
            plan = UNSET
        else:
            plan = CreateBillingCheckoutBodyPlan(_plan)

        _interval = d.pop("interval", UNSET)
        interval: CreateBillingCheckoutBodyInterval | Unset
        if isinstance(_interval, Unset):
            interval = UNSET
        else:
            interval = CreateBillingCheckoutBodyInterval(_interval)

        create_billing_checkout_body = cls(
            mode=mode,
            plan=plan,
            interval=interval,
        )

        return create_billing_checkout_body
