from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.interview_completed_event_data_ended_by import (
    InterviewCompletedEventDataEndedBy,
)

T = TypeVar("T", bound="InterviewCompletedEventData")


@_attrs_define
class InterviewCompletedEventData:
    """The interview of an accepted match has ended. The recruiter's report card is never in it.

    Attributes:
        match_id (str): The match (`GET /api/v1/matches/{id}`)
        job_id (str): The job the match is for
        role_title (str): The job's title
        live_event_slug (str): The live event the match was made at
        completed_at (datetime.datetime): When the interview ended
        ended_by (InterviewCompletedEventDataEndedBy): Who ended it, or the interview clock
        started_at (datetime.datetime | None): When both people were first in the interview room (which starts the
            clock); the acceptance when they never met there (e.g. a hosted video provider); null if unknown
        duration_seconds (int | None): From started_at to the end; null if unknown
    """

    match_id: str
    job_id: str
    role_title: str
    live_event_slug: str
    completed_at: datetime.datetime
    ended_by: InterviewCompletedEventDataEndedBy
    started_at: datetime.datetime | None
    duration_seconds: int | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        match_id = self.match_id

        job_id = self.job_id

        role_title = self.role_title

        live_event_slug = self.live_event_slug

        completed_at = self.completed_at.isoformat()

        ended_by = self.ended_by.value

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        duration_seconds: int | None
        duration_seconds = self.duration_seconds

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "match_id": match_id,
                "job_id": job_id,
                "role_title": role_title,
                "live_event_slug": live_event_slug,
                "completed_at": completed_at,
                "ended_by": ended_by,
                "started_at": started_at,
                "duration_seconds": duration_seconds,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        match_id = d.pop("match_id")

        job_id = d.pop("job_id")

        role_title = d.pop("role_title")

        live_event_slug = d.pop("live_event_slug")

        completed_at = datetime.datetime.fromisoformat(d.pop("completed_at"))

        ended_by = InterviewCompletedEventDataEndedBy(d.pop("ended_by"))

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("started_at"))

        def _parse_duration_seconds(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        duration_seconds = _parse_duration_seconds(d.pop("duration_seconds"))

        interview_completed_event_data = cls(
            match_id=match_id,
            job_id=job_id,
            role_title=role_title,
            live_event_slug=live_event_slug,
            completed_at=completed_at,
            ended_by=ended_by,
            started_at=started_at,
            duration_seconds=duration_seconds,
        )

        interview_completed_event_data.additional_properties = d
        return interview_completed_event_data

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
