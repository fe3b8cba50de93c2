from __future__ import annotations

from collections.abc import Mapping
from typing import (
    Any,
    Literal,
    Self,
    TypeVar,
    cast,
)

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WebhookTestEventData")


@_attrs_define
class WebhookTestEventData:
    """`POST /webhooks/{id}/test`: sent only to that subscription, whether or not it lists this type.

    Attributes:
        webhook_id (str): The subscription the test was sent to
        message (Literal['This is a test event from Job Fair.']):
        test (bool):
    """

    webhook_id: str
    message: Literal["This is a test event from Job Fair."]
    test: bool
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        webhook_id = self.webhook_id

        message = self.message

        test = self.test

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "webhook_id": webhook_id,
                "message": message,
                "test": test,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        webhook_id = d.pop("webhook_id")

        message = cast(Literal["This is a test event from Job Fair."], d.pop("message"))
        if message != "This is a test event from Job Fair.":
            raise ValueError(
                f"message must match const 'This is a test event from Job Fair.', got '{message}'"
            )

        test = d.pop("test")

        webhook_test_event_data = cls(
            webhook_id=webhook_id,
            message=message,
            test=test,
        )

        webhook_test_event_data.additional_properties = d
        return webhook_test_event_data

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
