from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar
from uuid import UUID

from attrs import define as _attrs_define

from ..models.rotate_webhook_secret_response_200_owner_type import (
    RotateWebhookSecretResponse200OwnerType,
)

T = TypeVar("T", bound="RotateWebhookSecretResponse200Owner")


@_attrs_define
class RotateWebhookSecretResponse200Owner:
    """Team subscriptions receive the team's events; user subscriptions the user's

    Attributes:
        type_ (RotateWebhookSecretResponse200OwnerType):
        id (UUID):
    """

    type_: RotateWebhookSecretResponse200OwnerType
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
        type_ = RotateWebhookSecretResponse200OwnerType(d.pop("type"))

        id = UUID(d.pop("id"))

        rotate_webhook_secret_response_200_owner = cls(
            type_=type_,
            id=id,
        )

        return rotate_webhook_secret_response_200_owner
