from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.team_job_event_status import TeamJobEventStatus
from ..models.team_job_remote_preference_type_0 import TeamJobRemotePreferenceType0
from ..models.team_job_status import TeamJobStatus

T = TypeVar("T", bound="TeamJob")


@_attrs_define
class TeamJob:
    """
    Attributes:
        id (UUID):
        title (str):
        company_name (str):
        logo_url (None | str):
        essential_skills (list[str]):
        bonus_skills (list[str]):
        experience_min (int):
        salary_min (int | None):
        salary_max (int | None):
        location (None | str):
        remote_preference (None | TeamJobRemotePreferenceType0):
        event_slug (str): Parent event
        join_url (str): The parent event's join_url
        status (TeamJobStatus):
        live_event_id (UUID):
        event_status (TeamJobEventStatus):
        closed_at (datetime.datetime | None):
        created_at (datetime.datetime):
        updated_at (datetime.datetime):
    """

    id: UUID
    title: str
    company_name: str
    logo_url: None | str
    essential_skills: list[str]
    bonus_skills: list[str]
    experience_min: int
    salary_min: int | None
    salary_max: int | None
    location: None | str
    remote_preference: None | TeamJobRemotePreferenceType0
    event_slug: str
    join_url: str
    status: TeamJobStatus
    live_event_id: UUID
    event_status: TeamJobEventStatus
    closed_at: datetime.datetime | None
    created_at: datetime.datetime
    updated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        title = self.title

        company_name = self.company_name

        logo_url: None | str
        logo_url = self.logo_url

        essential_skills = self.essential_skills

        bonus_skills = self.bonus_skills

        experience_min = self.experience_min

        salary_min: int | None
        salary_min = self.salary_min

        salary_max: int | None
        salary_max = self.salary_max

        location: None | str
        location = self.location

        remote_preference: None | str
        if isinstance(self.remote_preference, TeamJobRemotePreferenceType0):
            remote_preference = self.remote_preference.value
        else:
            remote_preference = self.remote_preference

        event_slug = self.event_slug

        join_url = self.join_url

        status = self.status.value

        live_event_id = str(self.live_event_id)

        event_status = self.event_status.value

        closed_at: None | str
        if isinstance(self.closed_at, datetime.datetime):
            closed_at = self.closed_at.isoformat()
        else:
            closed_at = self.closed_at

        created_at = self.created_at.isoformat()

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "title": title,
                "company_name": company_name,
                "logo_url": logo_url,
                "essential_skills": essential_skills,
                "bonus_skills": bonus_skills,
                "experience_min": experience_min,
                "salary_min": salary_min,
                "salary_max": salary_max,
                "location": location,
                "remote_preference": remote_preference,
                "event_slug": event_slug,
                "join_url": join_url,
                "status": status,
                "live_event_id": live_event_id,
                "event_status": event_status,
                "closed_at": closed_at,
                "created_at": created_at,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        title = d.pop("title")

        company_name = d.pop("company_name")

        def _parse_logo_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        logo_url = _parse_logo_url(d.pop("logo_url"))

        essential_skills = cast(list[str], d.pop("essential_skills"))

        bonus_skills = cast(list[str], d.pop("bonus_skills"))

        experience_min = d.pop("experience_min")

        def _parse_salary_min(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        salary_min = _parse_salary_min(d.pop("salary_min"))

        def _parse_salary_max(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        salary_max = _parse_salary_max(d.pop("salary_max"))

        def _parse_location(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        location = _parse_location(d.pop("location"))

        def _parse_remote_preference(
            data: object,
        ) -> None | TeamJobRemotePreferenceType0:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                remote_preference_type_0 = TeamJobRemotePreferenceType0(data)

                return remote_preference_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | TeamJobRemotePreferenceType0, data)

        remote_preference = _parse_remote_preference(d.pop("remote_preference"))

        event_slug = d.pop("event_slug")

        join_url = d.pop("join_url")

        status = TeamJobStatus(d.pop("status"))

        live_event_id = UUID(d.pop("live_event_id"))

        event_status = TeamJobEventStatus(d.pop("event_status"))

        def _parse_closed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                closed_at_type_0 = datetime.datetime.fromisoformat(data)

                return closed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        closed_at = _parse_closed_at(d.pop("closed_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        team_job = cls(
            id=id,
            title=title,
            company_name=company_name,
            logo_url=logo_url,
            essential_skills=essential_skills,
            bonus_skills=bonus_skills,
            experience_min=experience_min,
            salary_min=salary_min,
            salary_max=salary_max,
            location=location,
            remote_preference=remote_preference,
            event_slug=event_slug,
            join_url=join_url,
            status=status,
            live_event_id=live_event_id,
            event_status=event_status,
            closed_at=closed_at,
            created_at=created_at,
            updated_at=updated_at,
        )

        return team_job
