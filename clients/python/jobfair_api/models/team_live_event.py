from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.team_live_event_status import TeamLiveEventStatus
from ..models.team_live_event_visibility import TeamLiveEventVisibility

T = TypeVar("T", bound="TeamLiveEvent")


@_attrs_define
class TeamLiveEvent:
    """
    Attributes:
        id (UUID):
        slug (str):
        status (TeamLiveEventStatus):
        visibility (TeamLiveEventVisibility):
        company_name (str):
        logo_url (None | str):
        accent_color (str):
        headline (None | str):
        description (None | str):
        planned_start_at (datetime.datetime | None):
        planned_end_at (datetime.datetime | None):
        started_at (datetime.datetime | None): Set by the first go-live
        ends_at (datetime.datetime | None): The planned end while live or paused; the actual end once ended
        ended_at (datetime.datetime | None):
        interview_slots (int): Interviews the team can run at the same time during this event
        candidates_joined (int):
        matches_made (int):
        job_titles (list[str]):
        join_url (str):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: UUID
    slug: str
    status: TeamLiveEventStatus
    visibility: TeamLiveEventVisibility
    company_name: str
    logo_url: None | str
    accent_color: str
    headline: None | str
    description: None | str
    planned_start_at: datetime.datetime | None
    planned_end_at: datetime.datetime | None
    started_at: datetime.datetime | None
    ends_at: datetime.datetime | None
    ended_at: datetime.datetime | None
    interview_slots: int
    candidates_joined: int
    matches_made: int
    job_titles: list[str]
    join_url: str
    created_at: datetime.datetime
    updated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        slug = self.slug

        status = self.status.value

        visibility = self.visibility.value

        company_name = self.company_name

        logo_url: None | str
        logo_url = self.logo_url

        accent_color = self.accent_color

        headline: None | str
        headline = self.headline

        description: None | str
        description = self.description

        planned_start_at: None | str
        if isinstance(self.planned_start_at, datetime.datetime):
            planned_start_at = self.planned_start_at.isoformat()
        else:
            planned_start_at = self.planned_start_at

        planned_end_at: None | str
        if isinstance(self.planned_end_at, datetime.datetime):
            planned_end_at = self.planned_end_at.isoformat()
        else:
            planned_end_at = self.planned_end_at

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        ends_at: None | str
        if isinstance(self.ends_at, datetime.datetime):
            ends_at = self.ends_at.isoformat()
        else:
            ends_at = self.ends_at

        ended_at: None | str
        if isinstance(self.ended_at, datetime.datetime):
            ended_at = self.ended_at.isoformat()
        else:
            ended_at = self.ended_at

        interview_slots = self.interview_slots

        candidates_joined = self.candidates_joined

        matches_made = self.matches_made

        job_titles = self.job_titles

        join_url = self.join_url

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "slug": slug,
                "status": status,
                "visibility": visibility,
                "company_name": company_name,
                "logo_url": logo_url,
                "accent_color": accent_color,
                "headline": headline,
                "description": description,
                "planned_start_at": planned_start_at,
                "planned_end_at": planned_end_at,
                "started_at": started_at,
                "ends_at": ends_at,
                "ended_at": ended_at,
                "interview_slots": interview_slots,
                "candidates_joined": candidates_joined,
                "matches_made": matches_made,
                "job_titles": job_titles,
                "join_url": join_url,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        slug = d.pop("slug")

        status = TeamLiveEventStatus(d.pop("status"))

        visibility = TeamLiveEventVisibility(d.pop("visibility"))

        company_name = d.pop("company_name")

        def _parse_logo_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        logo_url = _parse_logo_url(d.pop("logo_url"))

        accent_color = d.pop("accent_color")

        def _parse_headline(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        headline = _parse_headline(d.pop("headline"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        def _parse_planned_start_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                planned_start_at_type_0 = datetime.datetime.fromisoformat(data)

                return planned_start_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        planned_start_at = _parse_planned_start_at(d.pop("planned_start_at"))

        def _parse_planned_end_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                planned_end_at_type_0 = datetime.datetime.fromisoformat(data)

                return planned_end_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        planned_end_at = _parse_planned_end_at(d.pop("planned_end_at"))

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

        def _parse_ends_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ends_at_type_0 = datetime.datetime.fromisoformat(data)

                return ends_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        ends_at = _parse_ends_at(d.pop("ends_at"))

        def _parse_ended_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ended_at_type_0 = datetime.datetime.fromisoformat(data)

                return ended_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        ended_at = _parse_ended_at(d.pop("ended_at"))

        interview_slots = d.pop("interview_slots")

        candidates_joined = d.pop("candidates_joined")

        matches_made = d.pop("matches_made")

        job_titles = cast(list[str], d.pop("job_titles"))

        join_url = d.pop("join_url")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        team_live_event = cls(
            id=id,
            slug=slug,
            status=status,
            visibility=visibility,
            company_name=company_name,
            logo_url=logo_url,
            accent_color=accent_color,
            headline=headline,
            description=description,
            planned_start_at=planned_start_at,
            planned_end_at=planned_end_at,
            started_at=started_at,
            ends_at=ends_at,
            ended_at=ended_at,
            interview_slots=interview_slots,
            candidates_joined=candidates_joined,
            matches_made=matches_made,
            job_titles=job_titles,
            join_url=join_url,
            created_at=created_at,
            updated_at=updated_at,
        )

        return team_live_event
