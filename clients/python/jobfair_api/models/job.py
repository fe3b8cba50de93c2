from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.job_remote_preference_type_0 import JobRemotePreferenceType0

T = TypeVar("T", bound="Job")


@_attrs_define
class Job:
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
        remote_preference (JobRemotePreferenceType0 | None):
        event_slug (str): Parent event
        join_url (str): The parent event's join_url
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
    remote_preference: JobRemotePreferenceType0 | None
    event_slug: str
    join_url: str

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
        if isinstance(self.remote_preference, JobRemotePreferenceType0):
            remote_preference = self.remote_preference.value
        else:
            remote_preference = self.remote_preference

        event_slug = self.event_slug

        join_url = self.join_url

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

        def _parse_remote_preference(data: object) -> JobRemotePreferenceType0 | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                remote_preference_type_0 = JobRemotePreferenceType0(data)

                return remote_preference_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JobRemotePreferenceType0 | None, data)

        remote_preference = _parse_remote_preference(d.pop("remote_preference"))

        event_slug = d.pop("event_slug")

        join_url = d.pop("join_url")

        job = cls(
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
        )

        return job
