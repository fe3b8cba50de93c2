from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.candidate_note import CandidateNote


T = TypeVar("T", bound="PutCandidateNoteResponse200")


@_attrs_define
class PutCandidateNoteResponse200:
    """
    Attributes:
        note (CandidateNote):
    """

    note: CandidateNote

    def to_dict(self) -> dict[str, Any]:
        note = self.note.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "note": note,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.candidate_note import CandidateNote

        d = dict(src_dict)
        note = CandidateNote.from_dict(d.pop("note"))

        put_candidate_note_response_200 = cls(
            note=note,
        )

        return put_candidate_note_response_200
