from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="CandidateNote")


@_attrs_define
class CandidateNote:
    """
    Attributes:
        note (str):
        rating (int | None):
        updated_at (datetime.datetime):
    """

    note: str
    rating: int | None
    updated_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        note = self.note

        rating: int | None
        rating = self.rating

        updated_at = self.updated_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "note": note,
                "rating": rating,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        note = d.pop("note")

        def _parse_rating(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        rating = _parse_rating(d.pop("rating"))

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        candidate_note = cls(
            note=note,
            rating=rating,
            updated_at=updated_at,
        )

        return candidate_note
