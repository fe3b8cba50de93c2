from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.queue_entry import QueueEntry


T = TypeVar("T", bound="LeaveQueueResponse200")


@_attrs_define
class LeaveQueueResponse200:
    """
    Attributes:
        queue_entry (QueueEntry):
    """

    queue_entry: QueueEntry

    def to_dict(self) -> dict[str, Any]:
        queue_entry = self.queue_entry.to_dict()

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
        queue_entry = QueueEntry.from_dict(d.pop("queue_entry"))

        leave_queue_response_200 = cls(
            queue_entry=queue_entry,
        )

        return leave_queue_response_200
