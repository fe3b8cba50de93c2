from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.candidate import Candidate
    from ..models.candidate_match import CandidateMatch


T = TypeVar("T", bound="GetCandidateResponse200")


@_attrs_define
class GetCandidateResponse200:
    """
    Attributes:
        candidate (Candidate):
        matches (list[CandidateMatch]):
    """

    candidate: Candidate
    matches: list[CandidateMatch]

    def to_dict(self) -> dict[str, Any]:
        candidate = self.candidate.to_dict()

        matches = []
        for matches_item_data in self.matches:
            matches_item = matches_item_data.to_dict()
            matches.append(matches_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "candidate": candidate,
                "matches": matches,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.candidate import Candidate
        from ..models.candidate_match import CandidateMatch

        d = dict(src_dict)
        candidate = Candidate.from_dict(d.pop("candidate"))

        matches = []
        _matches = d.pop("matches")
        for matches_item_data in _matches:
            matches_item = CandidateMatch.from_dict(matches_item_data)

            matches.append(matches_item)

        get_candidate_response_200 = cls(
            candidate=candidate,
            matches=matches,
        )

        return get_candidate_response_200
