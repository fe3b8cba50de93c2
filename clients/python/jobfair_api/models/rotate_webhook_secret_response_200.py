from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.rotate_webhook_secret_response_200_status import (
    RotateWebhookSecretResponse200Status,
)

if TYPE_CHECKING:
    from ..models.rotate_webhook_secret_response_200_owner import (
        RotateWebhookSecretResponse200Owner,
    )


T = TypeVar("T", bound="RotateWebhookSecretResponse200")


@_attrs_define
class RotateWebhookSecretResponse200:
    """
    Attributes:
        id (str): `whk_…`
        target_url (str):
        events (list[str]):
        description (str): Free text; "" when none was given (or it was cleared with null)
        status (RotateWebhookSecretResponse200Status): `paused` after too many consecutive failures (no new events
            accepted); re-enable with PATCH status=active
        consecutive_failures (int):
        paused_at (datetime.datetime | None):
        owner (RotateWebhookSecretResponse200Owner): Team subscriptions receive the team's events; user subscriptions
            the user's
        secret_rotated_at (datetime.datetime | None):
        previous_secret_expires_at (datetime.datetime):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
        secret (str): `svc_whsec_…`: shown this once, never stored in plain text; keep it to verify signatures
    """

    id: str
    target_url: str
    events: list[str]
    description: str
    status: RotateWebhookSecretResponse200Status
    consecutive_failures: int
    paused_at: datetime.datetime | None
    owner: RotateWebhookSecretResponse200Owner
    secret_rotated_at: datetime.datetime | None
    previous_secret_expires_at: datetime.datetime
    created_at: datetime.datetime
    updated_at: datetime.datetime
    secret: str

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

        previous_secret_expires_at = self.previous_secret_expires_at.isoformat()

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        secret = self.secret

        field_dict: dict[str, Any] = {}

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
        from ..models.rotate_webhook_secret_response_200_owner import (
            RotateWebhookSecretResponse200Owner,
        )

        d = dict(src_dict)
        id = d.pop("id")

        target_url = d.pop("target_url")

        events = cast(list[str], d.pop("events"))

        description = d.pop("description")

        status = RotateWebhookSecretResponse200Status(d.pop("status"))

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

        owner = RotateWebhookSecretResponse200Owner.from_dict(d.pop("owner"))

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

        previous_secret_expires_at = datetime.datetime.fromisoformat(
            d.pop("previous_secret_expires_at")
        )

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        secret = d.pop("secret")

        rotate_webhook_secret_response_200 = cls(
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

        return rotate_webhook_secret_response_200
