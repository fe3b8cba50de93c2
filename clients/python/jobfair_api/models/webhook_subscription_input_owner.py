from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.webhook_subscription_input_owner_type import (
    WebhookSubscriptionInputOwnerType,
)

T = TypeVar("T", bound="WebhookSubscriptionInputOwner")


@_attrs_define
class WebhookSubscriptionInputOwner:
    """Team subscriptions receive the team's events; user subscriptions the user's

    Attributes:
        type_ (WebhookSubscriptionInputOwnerType):
        id (UUID):
    """

    type_: WebhookSubscriptionInputOwnerType
    id: UUID
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        type_ = self.type_.value

        id = str(self.id)

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
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
        type_ = WebhookSubscriptionInputOwnerType(d.pop("type"))

        id = UUID(d.pop("id"))

        webhook_subscription_input_owner = cls(
            type_=type_,
            id=id,
        )

        webhook_subscription_input_owner.additional_properties = d
        return webhook_subscription_input_owner

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
