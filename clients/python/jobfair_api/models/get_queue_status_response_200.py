from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.queue_entry import QueueEntry


T = TypeVar("T", bound="GetQueueStatusResponse200")


@_attrs_define
class GetQueueStatusResponse200:
    """
    Attributes:
        queue_entry (None | QueueEntry):
    """

    queue_entry: None | QueueEntry

    def to_dict(self) -> dict[str, Any]:
        from ..models.queue_entry import QueueEntry

        queue_entry: dict[str, Any] | None
        if isinstance(self.queue_entry, QueueEntry):
            queue_entry = self.queue_entry.to_dict()
        else:
            queue_entry = self.queue_entry

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "queue_entry": queue_entry,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.queue_entry import QueueEntry

        d = dict(src_dict)

        def _parse_queue_entry(data: object) -> None | QueueEntry:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                queue_entry_type_0 = QueueEntry.from_dict(data)

                return queue_entry_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QueueEntry, data)

        queue_entry = _parse_queue_entry(d.pop("queue_entry"))

        get_queue_status_response_200 = cls(
            queue_entry=queue_entry,
        )

        return get_queue_status_response_200
