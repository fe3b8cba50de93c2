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
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.webhook_test_result_input_event_data import (
        WebhookTestResultInputEventData,
    )


T = TypeVar("T", bound="WebhookTestResultInputEvent")


@_attrs_define
class WebhookTestResultInputEvent:
    """
    Attributes:
        id (str):
        type_ (Literal['webhook.test']):
        data (WebhookTestResultInputEventData):
    """

    id: str
    type_: Literal["webhook.test"]
    data: WebhookTestResultInputEventData
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        type_ = self.type_

        data = self.data.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
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
        from ..models.webhook_test_result_input_event_data import (
            WebhookTestResultInputEventData,
        )

        d = dict(src_dict)
        id = d.pop("id")

        type_ = cast(Literal["webhook.test"], d.pop("type"))
        if type_ != "webhook.test":
            raise ValueError(f"type must match const 'webhook.test', got '{type_}'")

        data = WebhookTestResultInputEventData.from_dict(d.pop("data"))

        webhook_test_result_input_event = cls(
            id=id,
            type_=type_,
            data=data,
        )

        webhook_test_result_input_event.additional_properties = d
        return webhook_test_result_input_event

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
