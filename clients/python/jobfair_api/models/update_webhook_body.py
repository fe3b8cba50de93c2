from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.update_webhook_body_events_item import UpdateWebhookBodyEventsItem
from ..models.update_webhook_body_status import UpdateWebhookBodyStatus
from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateWebhookBody")


@_attrs_define
class UpdateWebhookBody:
    """
    Attributes:
        target_url (str | Unset): HTTPS URL deliveries are POSTed to. Private, loopback, link-local and metadata
            addresses are refused (also after DNS resolution, at every connection).
        events (list[UpdateWebhookBodyEventsItem] | Unset):
        description (None | str | Unset):
        status (UpdateWebhookBodyStatus | Unset): `active` re-enables a paused or disabled subscription and resets its
            failure counter; `disabled` stops deliveries (waiting retries end as cancelled)
    """

    target_url: str | Unset = UNSET
    events: list[UpdateWebhookBodyEventsItem] | Unset = UNSET
    description: None | str | Unset = UNSET
    status: UpdateWebhookBodyStatus | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        target_url = self.target_url

        events: list[str] | Unset = UNSET
        if not isinstance(self.events, Unset):
            events = []
            for events_item_data in self.events:
                events_item = events_item_data.value
                events.append(events_item)

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        status: str | Unset = UNSET
        if not isinstance(self.status, Unset):
            status = self.status.value

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if target_url is not UNSET:
            field_dict["target_url"] = target_url
        if events is not UNSET:
            field_dict["events"] = events
        if description is not UNSET:
            field_dict["description"] = description
        if status is not UNSET:
            field_dict["status"] = status

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        target_url = d.pop("target_url", UNSET)

        _events = d.pop("events", UNSET)
        events: list[UpdateWebhookBodyEventsItem] | Unset = UNSET
        if _events is not UNSET:
            events = []
            for events_item_data in _events:
                events_item = UpdateWebhookBodyEventsItem(events_item_data)

                events.append(events_item)

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        _status = d.pop("status", UNSET)
        status: UpdateWebhookBodyStatus | Unset
        if isinstance(_status, Unset):
            status = UNSET
        else:
            status = UpdateWebhookBodyStatus(_status)

        update_webhook_body = cls(
            target_url=target_url,
            events=events,
            description=description,
            status=status,
        )

        return update_webhook_body
