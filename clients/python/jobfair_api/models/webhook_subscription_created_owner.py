from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..models.webhook_subscription_created_owner_type import (
    WebhookSubscriptionCreatedOwnerType,
)

T = TypeVar("T", bound="WebhookSubscriptionCreatedOwner")


@_attrs_define
class WebhookSubscriptionCreatedOwner:
    """Team subscriptions receive the team's events; user subscriptions the user's

    Attributes:
        type_ (WebhookSubscriptionCreatedOwnerType):
        id (UUID):
    """

    type_: WebhookSubscriptionCreatedOwnerType
    id: UUID

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        id = str(self.id)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "type": type_,
                "id": id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        type_ = WebhookSubscriptionCreatedOwnerType(d.pop("type"))

        id = UUID(d.pop("id"))

        webhook_subscription_created_owner = cls(
            type_=type_,
            id=id,
        )

        return webhook_subscription_created_owner
