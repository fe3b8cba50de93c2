from __future__ import annotations

from collections.abc import Mapping
from typing import (
    TYPE_CHECKING,
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.webhook_test_result_event_data import WebhookTestResultEventData


T = TypeVar("T", bound="WebhookTestResultEvent")


@_attrs_define
class WebhookTestResultEvent:
    """
    Attributes:
        id (str):
        type_ (Literal['webhook.test']):
        data (WebhookTestResultEventData):
    """

    id: str
    type_: Literal["webhook.test"]
    data: WebhookTestResultEventData

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "type": type_,
                "data": data,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.webhook_test_result_event_data import WebhookTestResultEventData

        d = dict(src_dict)
        id = d.pop("id")

        type_ = cast(Literal["webhook.test"], d.pop("type"))
        if type_ != "webhook.test":
            raise ValueError(f"type must match const 'webhook.test', got '{type_}'")

        data = WebhookTestResultEventData.from_dict(d.pop("data"))

        webhook_test_result_event = cls(
            id=id,
            type_=type_,
            data=data,
        )

        return webhook_test_result_event
