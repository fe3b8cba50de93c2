from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.billing_status_interval_type_0 import BillingStatusIntervalType0
from ..models.billing_status_plan import BillingStatusPlan
from ..models.billing_status_provider import BillingStatusProvider
from ..models.billing_status_status import BillingStatusStatus

if TYPE_CHECKING:
    from ..models.billing_status_limits import BillingStatusLimits
    from ..models.billing_status_off_session_consent_type_0 import (
        BillingStatusOffSessionConsentType0,
    )
    from ..models.billing_status_pending_authentication_type_0 import (
        BillingStatusPendingAuthenticationType0,
    )


T = TypeVar("T", bound="BillingStatus")


@_attrs_define
class BillingStatus:
    """
    Attributes:
        team_id (UUID):
        plan (BillingStatusPlan):
        interval (BillingStatusIntervalType0 | None):
        status (BillingStatusStatus): `active`, `past_due` (a renewal failed; retried on the dunning schedule, then back
            to free), `canceled` (back on free), `incomplete`
        current_period_end (datetime.datetime | None):
        cancel_at_period_end (bool):
        off_session_consent (BillingStatusOffSessionConsentType0 | None): The one-time agreement (given in checkout)
            that lets POST /billing/charge-offsession charge without the human present
        failed_renewals (int):
        next_retry_at (datetime.datetime | None):
        pending_authentication (BillingStatusPendingAuthenticationType0 | None): An off-session charge waiting for the
            human to authenticate (SCA); the plan changes once they do
        limits (BillingStatusLimits):
        provider (BillingStatusProvider):
        updated_at (datetime.datetime | None):
    """

    team_id: UUID
    plan: BillingStatusPlan
    interval: BillingStatusIntervalType0 | None
    status: BillingStatusStatus
    current_period_end: datetime.datetime | None
    cancel_at_period_end: bool
    off_session_consent: BillingStatusOffSessionConsentType0 | None
    failed_renewals: int
    next_retry_at: datetime.datetime | None
    pending_authentication: BillingStatusPendingAuthenticationType0 | None
    limits: BillingStatusLimits
    provider: BillingStatusProvider
    updated_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.billing_status_off_session_consent_type_0 import (
            BillingStatusOffSessionConsentType0,
        )
        from ..models.billing_status_pending_authentication_type_0 import (
            BillingStatusPendingAuthenticationType0,
        )

        team_id = str(self.team_id)

        plan = self.plan.value

        interval: None | str
        if isinstance(self.interval, BillingStatusIntervalType0):
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
        if isinstance(self.off_session_consent, BillingStatusOffSessionConsentType0):
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
            self.pending_authentication, BillingStatusPendingAuthenticationType0
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
        from ..models.billing_status_limits import BillingStatusLimits
        from ..models.billing_status_off_session_consent_type_0 import (
            BillingStatusOffSessionConsentType0,
        )
        from ..models.billing_status_pending_authentication_type_0 import (
            BillingStatusPendingAuthenticationType0,
        )

        d = dict(src_dict)
        team_id = UUID(d.pop("team_id"))

        plan = BillingStatusPlan(d.pop("plan"))

        def _parse_interval(data: object) -> BillingStatusIntervalType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                interval_type_0 = BillingStatusIntervalType0(data)

                return interval_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BillingStatusIntervalType0 | None, data)

        interval = _parse_interval(d.pop("interval"))

        status = BillingStatusStatus(d.pop("status"))

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
        ) -> BillingStatusOffSessionConsentType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                off_session_consent_type_0 = (
                    BillingStatusOffSessionConsentType0.from_dict(data)
                )

                return off_session_consent_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BillingStatusOffSessionConsentType0 | None, data)

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
        ) -> BillingStatusPendingAuthenticationType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                pending_authentication_type_0 = (
                    BillingStatusPendingAuthenticationType0.from_dict(data)
                )

                return pending_authentication_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(BillingStatusPendingAuthenticationType0 | None, data)

        pending_authentication = _parse_pending_authentication(
            d.pop("pending_authentication")
        )

        limits = BillingStatusLimits.from_dict(d.pop("limits"))

        provider = BillingStatusProvider(d.pop("provider"))

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

        billing_status = cls(
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

        return billing_status
