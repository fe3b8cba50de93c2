from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.job import Job
    from ..models.live_event import LiveEvent


T = TypeVar("T", bound="GetPublicEventResponse200")


@_attrs_define
class GetPublicEventResponse200:
    """
    Attributes:
        event (LiveEvent):
        jobs (list[Job]):
    """

    event: LiveEvent
    jobs: list[Job]

    def to_dict(self) -> dict[str, Any]:
        event = self.event.to_dict()

        jobs = []
        for jobs_item_data in self.jobs:
            jobs_item = jobs_item_data.to_dict()
            jobs.append(jobs_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "event": event,
                "jobs": jobs,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.job import Job
        from ..models.live_event import LiveEvent

        d = dict(src_dict)
        event = LiveEvent.from_dict(d.pop("event"))

        jobs = []
        _jobs = d.pop("jobs")
        for jobs_item_data in _jobs:
            jobs_item = Job.from_dict(jobs_item_data)

            jobs.append(jobs_item)

        get_public_event_response_200 = cls(
            event=event,
            jobs=jobs,
        )

        return get_public_event_response_200
