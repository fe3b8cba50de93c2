from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="BillingStatusInputOffSessionConsentType0")


@_attrs_define
class BillingStatusInputOffSessionConsentType0:
    """
    Attributes:
        consented_at (datetime.datetime):
        payment_method (None | str): Card brand/last four, for display
    """

    consented_at: datetime.datetime
    payment_method: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        consented_at = self.consented_at.isoformat()

        payment_method: None | str
        payment_method = self.payment_method

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
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

        billing_status_input_off_session_consent_type_0 = cls(
            consented_at=consented_at,
            payment_method=payment_method,
        )

        billing_status_input_off_session_consent_type_0.additional_properties = d
        return billing_status_input_off_session_consent_type_0

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
