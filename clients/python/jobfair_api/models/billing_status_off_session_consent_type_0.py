from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="BillingStatusOffSessionConsentType0")


@_attrs_define
class BillingStatusOffSessionConsentType0:
    """
    Attributes:
        consented_at (datetime.datetime):
        payment_method (None | str): Card brand/last four, for display
    """

    consented_at: datetime.datetime
    payment_method: None | str

    def to_dict(self) -> dict[str, Any]:
        consented_at = self.consented_at.isoformat()

        payment_method: None | str
        payment_method = self.payment_method

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "consented_at": consented_at,
                "payment_method": payment_method,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        consented_at = datetime.datetime.fromisoformat(d.pop("consented_at"))

        def _parse_payment_method(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        payment_method = _parse_payment_method(d.pop("payment_method"))

        billing_status_off_session_consent_type_0 = cls(
            consented_at=consented_at,
            payment_method=payment_method,
        )

        return billing_status_off_session_consent_type_0
