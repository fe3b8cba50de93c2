from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.billing_status_input_interval_type_0 import (
    BillingStatusInputIntervalType0,
)
from ..models.billing_status_input_plan import BillingStatusInputPlan
from ..models.billing_status_input_provider import BillingStatusInputProvider
from ..models.billing_status_input_status import BillingStatusInputStatus

if TYPE_CHECKING:
    from ..models.billing_status_input_limits import BillingStatusInputLimits
    from ..models.billing_status_input_off_session_consent_type_0 import (
        BillingStatusInputOffSessionConsentType0,
    )
    from ..models.billing_status_input_pending_authentication_type_0 import (
        BillingStatusInputPendingAuthenticationType0,
    )


T = TypeVar("T", bound="BillingStatusInput")


@_attrs_define
class BillingStatusInput:
    """
    Attributes:
        team_id (UUID):
        plan (BillingStatusInputPlan):
        interval (BillingStatusInputIntervalType0 | None):
        status (BillingStatusInputStatus): `active`, `past_due` (a renewal failed; retried on the dunning schedule, then
            back to free), `canceled` (back on free), `incomplete`
        current_period_end (datetime.datetime | None):
        cancel_at_period_end (bool):
        off_session_consent (BillingStatusInputOffSessionConsentType0 | None): The one-time agreement (given in
            checkout) that lets POST /billing/charge-offsession charge without the human present
        failed_renewals (int):
        next_retry_at (datetime.datetime | None):
        pending_authentication (BillingStatusInputPendingAuthenticationType0 | None): An off-session charge waiting for
            the human to authenticate (SCA); the plan changes once they do
        limits (BillingStatusInputLimits):
        provider (BillingStatusInputProvider):
        updated_at (datetime.datetime | None):
    """

    team_id: UUID
    plan: BillingStatusInputPlan
    interval: BillingStatusInputIntervalType0 | None
    status: BillingStatusInputStatus
    current_period_end: datetime.datetime | None
    cancel_at_period_end: bool
    off_session_consent: BillingStatusInputOffSessionConsentType0 | None
    failed_renewals: int
    next_retry_at: datetime.datetime | None
    pending_authentication: BillingStatusInputPendingAuthenticationType0 | None
    limits: BillingStatusInputLimits
    provider: BillingStatusInputProvider
    updated_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.billing_status_input_off_session_consent_type_0 import (
            BillingStatusInputOffSessionConsentType0,
        )
        from ..models.billing_status_input_pending_authentication_type_0 import (
            BillingStatusInputPendingAuthenticationType0,
        )

        team_id = str(self.team_id)

        plan = self.plan.value

        interval: None | str
        if isinstance(self.interval, BillingStatusInputIntervalType0):
            interval = self.interval.value
        else:
            interval = self.interval

        status = self.status.value

        current_period_end: None | str
        if isinstance(self.current_period_end, datetime.datetime):
            current_period_end = self.current_period_end.isoformat()
        else:
            current_period_end = self.current_period_end

        cancel_at_period_end = self.cancel_at_period_end

        off_session_consent: dict[str, Any] | None
        if isinstance(
            self.off_session_consent, BillingStatusInputOffSessionConsentType0
        ):
            off_session_consent = self.off_session_consent.to_dict()
        else:
            off_session_consent = self.off_session_consent

        failed_renewals = self.failed_renewals

        next_retry_at: None | str
        if isinstance(self.next_retry_at, datetime.datetime):
            next_retry_at = self.next_retry_at.isoformat()
        else:
            next_retry_at = self.next_retry_at

        pending_authentication: dict[str, Any] | None
        if isinstance(
            self.pending_authentication, BillingStatusInputPendingAuthenticationType0
        ):
            pending_authentication = self.pending_authentication.to_dict()
        else:
            pending_authentication = self.pending_authentication

        limits = self.limits.to_dict()

        provider = self.provider.value

        updated_at: None | str
        if isinstance(self.updated_at, datetime.datetime):
            updated_at = self.updated_at.isoformat()
        else:
            updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "team_id": team_id,
                "plan": plan,
                "interval": interval,
                "status": status,
                "current_period_end": current_period_end,
                "cancel_at_period_end": cancel_at_period_end,
                "off_session_consent": off_session_consent,
                "failed_renewals": failed_renewals,
                "next_retry_at": next_retry_at,
                "pending_authentication": pending_authentication,
                "limits": limits,
                "provider": provider,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.billing_status_input_limits import BillingStatusInputLimits
        from ..models.billing_status_input_off_session_consent_type_0 import (
            BillingStatusInputOffSessionConsentType0,
        )
        from ..models.billing_status_input_pending_authentication_type_0 import (
            BillingStatusInputPendingAuthenticationType0,
        )

        d = dict(src_dict)
        team_id = UUID(d.pop("team_id"))

        plan = BillingStatusInputPlan(d.pop("plan"))

        def _parse_interval(data: object) -> BillingStatusInputIntervalType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                interval_type_0 = BillingStatusInputIntervalType0(data)

                return interval_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BillingStatusInputIntervalType0 | None, data)

        interval = _parse_interval(d.pop("interval"))

        status = BillingStatusInputStatus(d.pop("status"))

        def _parse_current_period_end(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                current_period_end_type_0 = datetime.datetime.fromisoformat(data)

                return current_period_end_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        current_period_end = _parse_current_period_end(d.pop("current_period_end"))

        cancel_at_period_end = d.pop("cancel_at_period_end")

        def _parse_off_session_consent(
            data: object,
        ) -> BillingStatusInputOffSessionConsentType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                off_session_consent_type_0 = (
                    BillingStatusInputOffSessionConsentType0.from_dict(data)
                )

                return off_session_consent_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BillingStatusInputOffSessionConsentType0 | None, data)

        off_session_consent = _parse_off_session_consent(d.pop("off_session_consent"))

        failed_renewals = d.pop("failed_renewals")

        def _parse_next_retry_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_retry_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_retry_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        next_retry_at = _parse_next_retry_at(d.pop("next_retry_at"))

        def _parse_pending_authentication(
            data: object,
        ) -> BillingStatusInputPendingAuthenticationType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                pending_authentication_type_0 = (
                    BillingStatusInputPendingAuthenticationType0.from_dict(data)
                )

                return pending_authentication_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BillingStatusInputPendingAuthenticationType0 | None, data)

        pending_authentication = _parse_pending_authentication(
            d.pop("pending_authentication")
        )

        limits = BillingStatusInputLimits.from_dict(d.pop("limits"))

        provider = BillingStatusInputProvider(d.pop("provider"))

        def _parse_updated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_at_type_0 = datetime.datetime.fromisoformat(data)

                return updated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        updated_at = _parse_updated_at(d.pop("updated_at"))

        billing_status_input = cls(
            team_id=team_id,
            plan=plan,
            interval=interval,
            status=status,
            current_period_end=current_period_end,
            cancel_at_period_end=cancel_at_period_end,
            off_session_consent=off_session_consent,
            failed_renewals=failed_renewals,
            next_retry_at=next_retry_at,
            pending_authentication=pending_authentication,
            limits=limits,
            provider=provider,
            updated_at=updated_at,
        )

        billing_status_input.additional_properties = d
        return billing_status_input

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
