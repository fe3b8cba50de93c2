from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_subscription_created_input_status import (
    WebhookSubscriptionCreatedInputStatus,
)

if TYPE_CHECKING:
    from ..models.webhook_subscription_created_input_owner import (
        WebhookSubscriptionCreatedInputOwner,
    )


T = TypeVar("T", bound="WebhookSubscriptionCreatedInput")


@_attrs_define
class WebhookSubscriptionCreatedInput:
    """
    Attributes:
        id (str): `whk_…`
        target_url (str):
        events (list[str]):
        description (str): Free text; "" when none was given (or it was cleared with null)
        status (WebhookSubscriptionCreatedInputStatus): `paused` after too many consecutive failures (no new events
            accepted); re-enable with PATCH status=active
        consecutive_failures (int):
        paused_at (datetime.datetime | None):
        owner (WebhookSubscriptionCreatedInputOwner): Team subscriptions receive the team's events; user subscriptions
            the user's
        secret_rotated_at (datetime.datetime | None):
        previous_secret_expires_at (datetime.datetime | None): Until then deliveries also carry a v1= signature made
            with the previous secret
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        secret (str): `svc_whsec_…`: shown this once, never stored in plain text; keep it to verify signatures
    """

    id: str
    target_url: str
    events: list[str]
    description: str
    status: WebhookSubscriptionCreatedInputStatus
    consecutive_failures: int
    paused_at: datetime.datetime | None
    owner: WebhookSubscriptionCreatedInputOwner
    secret_rotated_at: datetime.datetime | None
    previous_secret_expires_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime
    secret: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        target_url = self.target_url

        events = self.events

        description = self.description

        status = self.status.value

        consecutive_failures = self.consecutive_failures

        paused_at: None | str
        if isinstance(self.paused_at, datetime.datetime):
            paused_at = self.paused_at.isoformat()
        else:
            paused_at = self.paused_at

        owner = self.owner.to_dict()

        secret_rotated_at: None | str
        if isinstance(self.secret_rotated_at, datetime.datetime):
            secret_rotated_at = self.secret_rotated_at.isoformat()
        else:
            secret_rotated_at = self.secret_rotated_at

        previous_secret_expires_at: None | str
        if isinstance(self.previous_secret_expires_at, datetime.datetime):
            previous_secret_expires_at = self.previous_secret_expires_at.isoformat()
        else:
            previous_secret_expires_at = self.previous_secret_expires_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        secret = self.secret

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "target_url": target_url,
                "events": events,
                "description": description,
                "status": status,
                "consecutive_failures": consecutive_failures,
                "paused_at": paused_at,
                "owner": owner,
                "secret_rotated_at": secret_rotated_at,
                "previous_secret_expires_at": previous_secret_expires_at,
                "created_at": created_at,
                "updated_at": updated_at,
                "secret": secret,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_subscription_created_input_owner import (
            WebhookSubscriptionCreatedInputOwner,
        )

        d = dict(src_dict)
        id = d.pop("id")

        target_url = d.pop("target_url")

        events = cast(list[str], d.pop("events"))

        description = d.pop("description")

        status = WebhookSubscriptionCreatedInputStatus(d.pop("status"))

        consecutive_failures = d.pop("consecutive_failures")

        def _parse_paused_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                paused_at_type_0 = datetime.datetime.fromisoformat(data)

                return paused_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        paused_at = _parse_paused_at(d.pop("paused_at"))

        owner = WebhookSubscriptionCreatedInputOwner.from_dict(d.pop("owner"))

        def _parse_secret_rotated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                secret_rotated_at_type_0 = datetime.datetime.fromisoformat(data)

                return secret_rotated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        secret_rotated_at = _parse_secret_rotated_at(d.pop("secret_rotated_at"))

        def _parse_previous_secret_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                previous_secret_expires_at_type_0 = datetime.datetime.fromisoformat(
                    data
                )

                return previous_secret_expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        previous_secret_expires_at = _parse_previous_secret_expires_at(
            d.pop("previous_secret_expires_at")
        )

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        secret = d.pop("secret")

        webhook_subscription_created_input = cls(
            id=id,
            target_url=target_url,
            events=events,
            description=description,
            status=status,
            consecutive_failures=consecutive_failures,
            paused_at=paused_at,
            owner=owner,
            secret_rotated_at=secret_rotated_at,
            previous_secret_expires_at=previous_secret_expires_at,
            created_at=created_at,
            updated_at=updated_at,
            secret=secret,
        )

        webhook_subscription_created_input.additional_properties = d
        return webhook_subscription_created_input

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
