from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="DeleteWebhookResponse200")


@_attrs_define
class DeleteWebhookResponse200:
    """
    Attributes:
        id (str):
        deleted (bool):
        cancelled_deliveries (int):
    """

    id: str
    deleted: bool
    cancelled_deliveries: int

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        deleted = self.deleted

        cancelled_deliveries = self.cancelled_deliveries

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "deleted": deleted,
                "cancelled_deliveries": cancelled_deliveries,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        deleted = d.pop("deleted")

        cancelled_deliveries = d.pop("cancelled_deliveries")

        delete_webhook_response_200 = cls(
            id=id,
            deleted=deleted,
            cancelled_deliveries=cancelled_deliveries,
        )

        return delete_webhook_response_200
