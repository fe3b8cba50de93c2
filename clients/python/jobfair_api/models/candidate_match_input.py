from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="CandidateMatchInput")


@_attrs_define
class CandidateMatchInput:
    """
    Attributes:
        id (UUID):
        status (str):
        match_score (float | None):
        job_id (UUID):
        job_title (str):
        event_slug (str):
        created_at (datetime.datetime):
        expires_at (datetime.datetime | None):
        accepted_at (datetime.datetime | None):
        declined_at (datetime.datetime | None):
        completed_at (datetime.datetime | None):
    """

    id: UUID
    status: str
    match_score: float | None
    job_id: UUID
    job_title: str
    event_slug: str
    created_at: datetime.datetime
    expires_at: datetime.datetime | None
    accepted_at: datetime.datetime | None
    declined_at: datetime.datetime | None
    completed_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        status = self.status

        match_score: float | None
        match_score = self.match_score

        job_id = str(self.job_id)

        job_title = self.job_title

        event_slug = self.event_slug

        created_at = self.created_at.isoformat()

        expires_at: None | str
        if isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        accepted_at: None | str
        if isinstance(self.accepted_at, datetime.datetime):
            accepted_at = self.accepted_at.isoformat()
        else:
            accepted_at = self.accepted_at

        declined_at: None | str
        if isinstance(self.declined_at, datetime.datetime):
            declined_at = self.declined_at.isoformat()
        else:
            declined_at = self.declined_at

        completed_at: None | str
        if isinstance(self.completed_at, datetime.datetime):
            completed_at = self.completed_at.isoformat()
        else:
            completed_at = self.completed_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "status": status,
                "match_score": match_score,
                "job_id": job_id,
                "job_title": job_title,
                "event_slug": event_slug,
                "created_at": created_at,
                "expires_at": expires_at,
                "accepted_at": accepted_at,
                "declined_at": declined_at,
                "completed_at": completed_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        status = d.pop("status")

        def _parse_match_score(data: object) -> float | None:
            if data is None:
                return data
            return cast(float | None, data)

        match_score = _parse_match_score(d.pop("match_score"))

        job_id = UUID(d.pop("job_id"))

        job_title = d.pop("job_title")

        event_slug = d.pop("event_slug")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        def _parse_expires_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        expires_at = _parse_expires_at(d.pop("expires_at"))

        def _parse_accepted_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                accepted_at_type_0 = datetime.datetime.fromisoformat(data)

                return accepted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        accepted_at = _parse_accepted_at(d.pop("accepted_at"))

        def _parse_declined_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                declined_at_type_0 = datetime.datetime.fromisoformat(data)

                return declined_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        declined_at = _parse_declined_at(d.pop("declined_at"))

        def _parse_completed_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                completed_at_type_0 = datetime.datetime.fromisoformat(data)

                return completed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        completed_at = _parse_completed_at(d.pop("completed_at"))

        candidate_match_input = cls(
            id=id,
            status=status,
            match_score=match_score,
            job_id=job_id,
            job_title=job_title,
            event_slug=event_slug,
            created_at=created_at,
            expires_at=expires_at,
            accepted_at=accepted_at,
            declined_at=declined_at,
            completed_at=completed_at,
        )

        candidate_match_input.additional_properties = d
        return candidate_match_input

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
