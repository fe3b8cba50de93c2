from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.job_create_input_remote_preference_type_0 import (
    JobCreateInputRemotePreferenceType0,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="JobCreateInput")


@_attrs_define
class JobCreateInput:
    """
    Attributes:
        live_event_id (UUID): Parent event: one of the caller's team's events that has not ended
        title (str):
        essential_skills (list[str]): 1–50 skill tags, each 1–60 characters
        bonus_skills (list[str] | Unset): Up to 50 skill tags
        experience_min (int | Unset): Default 0
        salary_min (int | None | Unset):
        salary_max (int | None | Unset):
        location (None | str | Unset):
        remote_preference (JobCreateInputRemotePreferenceType0 | None | Unset):
    """

    live_event_id: UUID
    title: str
    essential_skills: list[str]
    bonus_skills: list[str] | Unset = UNSET
    experience_min: int | Unset = UNSET
    salary_min: int | None | Unset = UNSET
    salary_max: int | None | Unset = UNSET
    location: None | str | Unset = UNSET
    remote_preference: JobCreateInputRemotePreferenceType0 | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        live_event_id = str(self.live_event_id)

        title = self.title

        essential_skills = self.essential_skills

        bonus_skills: list[str] | Unset = UNSET
        if not isinstance(self.bonus_skills, Unset):
            bonus_skills = self.bonus_skills

        experience_min = self.experience_min

        salary_min: int | None | Unset
        if isinstance(self.salary_min, Unset):
            salary_min = UNSET
        else:
            salary_min = self.salary_min

        salary_max: int | None | Unset
        if isinstance(self.salary_max, Unset):
            salary_max = UNSET
        else:
            salary_max = self.salary_max

        location: None | str | Unset
        if isinstance(self.location, Unset):
            location = UNSET
        else:
            location = self.location

        remote_preference: None | str | Unset
        if isinstance(self.remote_preference, Unset):
            remote_preference = UNSET
        elif isinstance(self.remote_preference, JobCreateInputRemotePreferenceType0):
            remote_preference = self.remote_preference.value
        else:
            remote_preference = self.remote_preference

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "live_event_id": live_event_id,
                "title": title,
                "essential_skills": essential_skills,
            }
        )
        if bonus_skills is not UNSET:
            field_dict["bonus_skills"] = bonus_skills
        if experience_min is not UNSET:
            field_dict["experience_min"] = experience_min
        if salary_min is not UNSET:
            field_dict["salary_min"] = salary_min
        if salary_max is not UNSET:
            field_dict["salary_max"] = salary_max
        if location is not UNSET:
            field_dict["location"] = location
        if remote_preference is not UNSET:
            field_dict["remote_preference"] = remote_preference

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        live_event_id = UUID(d.pop("live_event_id"))

        title = d.pop("title")

        essential_skills = cast(list[str], d.pop("essential_skills"))

        bonus_skills = cast(list[str], d.pop("bonus_skills", UNSET))

        experience_min = d.pop("experience_min", UNSET)

        def _parse_salary_min(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        salary_min = _parse_salary_min(d.pop("salary_min", UNSET))

        def _parse_salary_max(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        salary_max = _parse_salary_max(d.pop("salary_max", UNSET))

        def _parse_location(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        location = _parse_location(d.pop("location", UNSET))

        def _parse_remote_preference(
            data: object,
        ) -> JobCreateInputRemotePreferenceType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                remote_preference_type_0 = JobCreateInputRemotePreferenceType0(data)

                return remote_preference_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JobCreateInputRemotePreferenceType0 | None | Unset, data)

        remote_preference = _parse_remote_preference(d.pop("remote_preference", UNSET))

        job_create_input = cls(
            live_event_id=live_event_id,
            title=title,
            essential_skills=essential_skills,
            bonus_skills=bonus_skills,
            experience_min=experience_min,
            salary_min=salary_min,
            salary_max=salary_max,
            location=location,
            remote_preference=remote_preference,
        )

        return job_create_input
