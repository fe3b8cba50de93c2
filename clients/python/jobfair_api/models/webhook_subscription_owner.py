from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..models.webhook_subscription_owner_type import WebhookSubscriptionOwnerType

T = TypeVar("T", bound="WebhookSubscriptionOwner")


@_attrs_define
class WebhookSubscriptionOwner:
    """Team subscriptions receive the team's events; user subscriptions the user's

    Attributes:
        type_ (WebhookSubscriptionOwnerType):
        id (UUID):
    """

    type_: WebhookSubscriptionOwnerType
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
        type_ = WebhookSubscriptionOwnerType(d.pop("type"))

        id = UUID(d.pop("id"))

        webhook_subscription_owner = cls(
            type_=type_,
            id=id,
        )

        return webhook_subscription_owner
