from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CandidateNotePut")


@_attrs_define
class CandidateNotePut:
    """
    Attributes:
        note (str):
        rating (int | None | Unset):
    """

    note: str
    rating: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        note = self.note

        rating: int | None | Unset
        if isinstance(self.rating, Unset):
            rating = UNSET
        else:
            rating = self.rating

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "note": note,
            }
        )
        if rating is not UNSET:
            field_dict["rating"] = rating

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        note = d.pop("note")

        def _parse_rating(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rating = _parse_rating(d.pop("rating", UNSET))

        candidate_note_put = cls(
            note=note,
            rating=rating,
        )

        return candidate_note_put
