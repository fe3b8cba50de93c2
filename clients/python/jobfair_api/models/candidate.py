from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.candidate_note import CandidateNote


T = TypeVar("T", bound="Candidate")


@_attrs_define
class Candidate:
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
        note (CandidateNote | None): The team's private note and rating
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
    note: CandidateNote | None

    def to_dict(self) -> dict[str, Any]:
        from ..models.candidate_note import CandidateNote

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
        if isinstance(self.note, CandidateNote):
            note = self.note.to_dict()
        else:
            note = self.note

        field_dict: dict[str, Any] = {}

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
        from ..models.candidate_note import CandidateNote

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

        def _parse_note(data: object) -> CandidateNote | None:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                note_type_0 = CandidateNote.from_dict(data)

                return note_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CandidateNote | None, data)

        note = _parse_note(d.pop("note"))

        candidate = cls(
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

        return candidate
