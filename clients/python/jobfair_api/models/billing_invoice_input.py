from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.billing_invoice_input_interval_type_0 import (
    BillingInvoiceInputIntervalType0,
)
from ..models.billing_invoice_input_plan_type_0 import BillingInvoiceInputPlanType0
from ..models.billing_invoice_input_status import BillingInvoiceInputStatus

T = TypeVar("T", bound="BillingInvoiceInput")


@_attrs_define
class BillingInvoiceInput:
    """
    Attributes:
        id (str):
        number (None | str):
        amount (int): Smallest currency unit
        currency (str):
        status (BillingInvoiceInputStatus):
        plan (BillingInvoiceInputPlanType0 | None):
        interval (BillingInvoiceInputIntervalType0 | None):
        period_start (datetime.datetime | None):
        period_end (datetime.datetime | None):
        hosted_invoice_url (None | str):
        invoice_pdf (None | str):
        created_at (datetime.datetime):
    """

    id: str
    number: None | str
    amount: int
    currency: str
    status: BillingInvoiceInputStatus
    plan: BillingInvoiceInputPlanType0 | None
    interval: BillingInvoiceInputIntervalType0 | None
    period_start: datetime.datetime | None
    period_end: datetime.datetime | None
    hosted_invoice_url: None | str
    invoice_pdf: None | str
    created_at: datetime.datetime
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        number: None | str
        number = self.number

        amount = self.amount

        currency = self.currency

        status = self.status.value

        plan: None | str
        if isinstance(self.plan, BillingInvoiceInputPlanType0):
            plan = self.plan.value
        else:
            plan = self.plan

        interval: None | str
        if isinstance(self.interval, BillingInvoiceInputIntervalType0):
            interval = self.interval.value
        else:
            interval = self.interval

        period_start: None | str
        if isinstance(self.period_start, datetime.datetime):
            period_start = self.period_start.isoformat()
        else:
            period_start = self.period_start

        period_end: None | str
        if isinstance(self.period_end, datetime.datetime):
            period_end = self.period_end.isoformat()
        else:
            period_end = self.period_end

        hosted_invoice_url: None | str
        hosted_invoice_url = self.hosted_invoice_url

        invoice_pdf: None | str
        invoice_pdf = self.invoice_pdf

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "number": number,
                "amount": amount,
                "currency": currency,
                "status": status,
                "plan": plan,
                "interval": interval,
                "period_start": period_start,
                "period_end": period_end,
                "hosted_invoice_url": hosted_invoice_url,
                "invoice_pdf": invoice_pdf,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        def _parse_number(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        number = _parse_number(d.pop("number"))

        amount = d.pop("amount")

        currency = d.pop("currency")

        status = BillingInvoiceInputStatus(d.pop("status"))

        def _parse_plan(data: object) -> BillingInvoiceInputPlanType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                plan_type_0 = BillingInvoiceInputPlanType0(data)

                return plan_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BillingInvoiceInputPlanType0 | None, data)

        plan = _parse_plan(d.pop("plan"))

        def _parse_interval(data: object) -> BillingInvoiceInputIntervalType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                interval_type_0 = BillingInvoiceInputIntervalType0(data)

                return interval_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BillingInvoiceInputIntervalType0 | None, data)

        interval = _parse_interval(d.pop("interval"))

        def _parse_period_start(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                period_start_type_0 = datetime.datetime.fromisoformat(data)

                return period_start_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        period_start = _parse_period_start(d.pop("period_start"))

        def _parse_period_end(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                period_end_type_0 = datetime.datetime.fromisoformat(data)

                return period_end_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        period_end = _parse_period_end(d.pop("period_end"))

        def _parse_hosted_invoice_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        hosted_invoice_url = _parse_hosted_invoice_url(d.pop("hosted_invoice_url"))

        def _parse_invoice_pdf(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        invoice_pdf = _parse_invoice_pdf(d.pop("invoice_pdf"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        billing_invoice_input = cls(
            id=id,
            number=number,
            amount=amount,
            currency=currency,
            status=status,
            plan=plan,
            interval=interval,
            period_start=period_start,
            period_end=period_end,
            hosted_invoice_url=hosted_invoice_url,
            invoice_pdf=invoice_pdf,
            created_at=created_at,
        )

        billing_invoice_input.additional_properties = d
        return billing_invoice_input

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
