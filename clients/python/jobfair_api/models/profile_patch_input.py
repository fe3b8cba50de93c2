from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.profile_patch_input_remote_preference_type_0 import (
    ProfilePatchInputRemotePreferenceType0,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="ProfilePatchInput")


@_attrs_define
class ProfilePatchInput:
    """
    Attributes:
        full_name (str | Unset):
        title (str | Unset):
        summary (None | str | Unset):
        skills (list[str] | Unset):
        experience_years (int | Unset):
        location (None | str | Unset):
        remote_preference (None | ProfilePatchInputRemotePreferenceType0 | Unset):
        salary_expectation (int | None | Unset): Lowest acceptable yearly salary; null clears it
    """

    full_name: str | Unset = UNSET
    title: str | Unset = UNSET
    summary: None | str | Unset = UNSET
    skills: list[str] | Unset = UNSET
    experience_years: int | Unset = UNSET
    location: None | str | Unset = UNSET
    remote_preference: None | ProfilePatchInputRemotePreferenceType0 | Unset = UNSET
    salary_expectation: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        full_name = self.full_name

        title = self.title

        summary: None | str | Unset
        if isinstance(self.summary, Unset):
            summary = UNSET
        else:
            summary = self.summary

        skills: list[str] | Unset = UNSET
        if not isinstance(self.skills, Unset):
            skills = self.skills

        experience_years = self.experience_years

        location: None | str | Unset
        if isinstance(self.location, Unset):
            location = UNSET
        else:
            location = self.location

        remote_preference: None | str | Unset
        if isinstance(self.remote_preference, Unset):
            remote_preference = UNSET
        elif isinstance(self.remote_preference, ProfilePatchInputRemotePreferenceType0):
            remote_preference = self.remote_preference.value
        else:
            remote_preference = self.remote_preference

        salary_expectation: int | None | Unset
        if isinstance(self.salary_expectation, Unset):
            salary_expectation = UNSET
        else:
            salary_expectation = self.salary_expectation

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if full_name is not UNSET:
            field_dict["full_name"] = full_name
        if title is not UNSET:
            field_dict["title"] = title
        if summary is not UNSET:
            field_dict["summary"] = summary
        if skills is not UNSET:
            field_dict["skills"] = skills
        if experience_years is not UNSET:
            field_dict["experience_years"] = experience_years
        if location is not UNSET:
            field_dict["location"] = location
        if remote_preference is not UNSET:
            field_dict["remote_preference"] = remote_preference
        if salary_expectation is not UNSET:
            field_dict["salary_expectation"] = salary_expectation

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        full_name = d.pop("full_name", UNSET)

        title = d.pop("title", UNSET)

        def _parse_summary(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        summary = _parse_summary(d.pop("summary", UNSET))

        skills = cast(list[str], d.pop("skills", UNSET))

        experience_years = d.pop("experience_years", UNSET)

        def _parse_location(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        location = _parse_location(d.pop("location", UNSET))

        def _parse_remote_preference(
            data: object,
        ) -> None | ProfilePatchInputRemotePreferenceType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                remote_preference_type_0 = ProfilePatchInputRemotePreferenceType0(data)

                return remote_preference_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | ProfilePatchInputRemotePreferenceType0 | Unset, data)

        remote_preference = _parse_remote_preference(d.pop("remote_preference", UNSET))

        def _parse_salary_expectation(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        salary_expectation = _parse_salary_expectation(
            d.pop("salary_expectation", UNSET)
        )

        profile_patch_input = cls(
            full_name=full_name,
            title=title,
            summary=summary,
            skills=skills,
            experience_years=experience_years,
            location=location,
            remote_preference=remote_preference,
            salary_expectation=salary_expectation,
        )

        return profile_patch_input
