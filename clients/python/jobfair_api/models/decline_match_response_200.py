from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.match import Match


T = TypeVar("T", bound="DeclineMatchResponse200")


@_attrs_define
class DeclineMatchResponse200:
    """
    Attributes:
        match (Match):
    """

    match: Match

    def to_dict(self) -> dict[str, Any]:
        match = self.match.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "match": match,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.match import Match

        d = dict(src_dict)
        match = Match.from_dict(d.pop("match"))

        decline_match_response_200 = cls(
            match=match,
        )

        return decline_match_response_200
