from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.candidate_note_input import CandidateNoteInput


T = TypeVar("T", bound="CandidateInput")


@_attrs_define
class CandidateInput:
    """
    Attributes:
        user_id (UUID):
        full_name (str):
        title (None | str):
        summary (None | str):
        skills (list[str]):
        experience_years (int | None):
        location (None | str):
        remote_preference (None | str):
        first_seen_at (datetime.datetime): First contact with the team: first queue entry for one of its events, or
            first match
        last_seen_at (datetime.datetime):
        event_slugs (list[str]): The team's events whose queue the seeker joined
        matches_count (int): Matches with the team's jobs
        note (CandidateNoteInput | None): The team's private note and rating
    """

    user_id: UUID
    full_name: str
    title: None | str
    summary: None | str
    skills: list[str]
    experience_years: int | None
    location: None | str
    remote_preference: None | str
    first_seen_at: datetime.datetime
    last_seen_at: datetime.datetime
    event_slugs: list[str]
    matches_count: int
    note: CandidateNoteInput | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.candidate_note_input import CandidateNoteInput

        user_id = str(self.user_id)

        full_name = self.full_name

        title: None | str
        title = self.title

        summary: None | str
        summary = self.summary

        skills = self.skills

        experience_years: int | None
        experience_years = self.experience_years

        location: None | str
        location = self.location

        remote_preference: None | str
        remote_preference = self.remote_preference

        first_seen_at = self.first_seen_at.isoformat()

        last_seen_at = self.last_seen_at.isoformat()

        event_slugs = self.event_slugs

        matches_count = self.matches_count

        note: dict[str, Any] | None
        if isinstance(self.note, CandidateNoteInput):
            note = self.note.to_dict()
        else:
            note = self.note

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "user_id": user_id,
                "full_name": full_name,
                "title": title,
                "summary": summary,
                "skills": skills,
                "experience_years": experience_years,
                "location": location,
                "remote_preference": remote_preference,
                "first_seen_at": first_seen_at,
                "last_seen_at": last_seen_at,
                "event_slugs": event_slugs,
                "matches_count": matches_count,
                "note": note,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.candidate_note_input import CandidateNoteInput

        d = dict(src_dict)
        user_id = UUID(d.pop("user_id"))

        full_name = d.pop("full_name")

        def _parse_title(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        title = _parse_title(d.pop("title"))

        def _parse_summary(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        summary = _parse_summary(d.pop("summary"))

        skills = cast(list[str], d.pop("skills"))

        def _parse_experience_years(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        experience_years = _parse_experience_years(d.pop("experience_years"))

        def _parse_location(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        location = _parse_location(d.pop("location"))

        def _parse_remote_preference(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        remote_preference = _parse_remote_preference(d.pop("remote_preference"))

        first_seen_at = datetime.datetime.fromisoformat(d.pop("first_seen_at"))

        last_seen_at = datetime.datetime.fromisoformat(d.pop("last_seen_at"))

        event_slugs = cast(list[str], d.pop("event_slugs"))

        matches_count = d.pop("matches_count")

        def _parse_note(data: object) -> CandidateNoteInput | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                note_type_0 = CandidateNoteInput.from_dict(data)

                return note_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CandidateNoteInput | None, data)

        note = _parse_note(d.pop("note"))

        candidate_input = cls(
            user_id=user_id,
            full_name=full_name,
            title=title,
            summary=summary,
            skills=skills,
            experience_years=experience_years,
            location=location,
            remote_preference=remote_preference,
            first_seen_at=first_seen_at,
            last_seen_at=last_seen_at,
            event_slugs=event_slugs,
            matches_count=matches_count,
            note=note,
        )

        candidate_input.additional_properties = d
        return candidate_input

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
