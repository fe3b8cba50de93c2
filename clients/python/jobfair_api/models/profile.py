from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.profile_remote_preference_type_0 import ProfileRemotePreferenceType0
from ..types import UNSET, Unset

T = TypeVar("T", bound="Profile")


@_attrs_define
class Profile:
    """
    Attributes:
        full_name (str):
        title (str):
        summary (None | str):
        skills (list[str]):
        experience_years (int):
        location (None | str):
        remote_preference (None | ProfileRemotePreferenceType0):
        salary_expectation (int | None): Lowest acceptable yearly salary (the jobs' currency); null when not given.
            Feeds the salary component of the match score.
        updated_at (datetime.datetime | Unset):
    """

    full_name: str
    title: str
    summary: None | str
    skills: list[str]
    experience_years: int
    location: None | str
    remote_preference: None | ProfileRemotePreferenceType0
    salary_expectation: int | None
    updated_at: datetime.datetime | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        full_name = self.full_name

        title = self.title

        summary: None | str
        summary = self.summary

        skills = self.skills

        experience_years = self.experience_years

        location: None | str
        location = self.location

        remote_preference: None | str
        if isinstance(self.remote_preference, ProfileRemotePreferenceType0):
            remote_preference = self.remote_preference.value
        else:
            remote_preference = self.remote_preference

        salary_expectation: int | None
        salary_expectation = self.salary_expectation

        updated_at: str | Unset = UNSET
        if not isinstance(self.updated_at, Unset):
            updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "full_name": full_name,
                "title": title,
                "summary": summary,
                "skills": skills,
                "experience_years": experience_years,
                "location": location,
                "remote_preference": remote_preference,
                "salary_expectation": salary_expectation,
            }
        )
        if updated_at is not UNSET:
            field_dict["updated_at"] = updated_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        full_name = d.pop("full_name")

        title = d.pop("title")

        def _parse_summary(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        summary = _parse_summary(d.pop("summary"))

        skills = cast(list[str], d.pop("skills"))

        experience_years = d.pop("experience_years")

        def _parse_location(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        location = _parse_location(d.pop("location"))

        def _parse_remote_preference(
            data: object,
        ) -> None | ProfileRemotePreferenceType0:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                remote_preference_type_0 = ProfileRemotePreferenceType0(data)

                return remote_preference_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ProfileRemotePreferenceType0, data)

        remote_preference = _parse_remote_preference(d.pop("remote_preference"))

        def _parse_salary_expectation(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        salary_expectation = _parse_salary_expectation(d.pop("salary_expectation"))

        _updated_at = d.pop("updated_at", UNSET)
        updated_at: datetime.datetime | Unset
        if isinstance(_updated_at, Unset):
            updated_at = UNSET
        else:
            updated_at = datetime.datetime.fromisoformat(_updated_at)

        profile = cls(
            full_name=full_name,
            title=title,
            summary=summary,
            skills=skills,
            experience_years=experience_years,
            location=location,
            remote_preference=remote_preference,
            salary_expectation=salary_expectation,
            updated_at=updated_at,
        )

        return profile
