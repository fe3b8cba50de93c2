from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.match import Match


T = TypeVar("T", bound="ListMatchesResponse200")


@_attrs_define
class ListMatchesResponse200:
    """
    Attributes:
        matches (list[Match]):
    """

    matches: list[Match]

    def to_dict(self) -> dict[str, Any]:
        matches = []
        for matches_item_data in self.matches:
            matches_item = matches_item_data.to_dict()
            matches.append(matches_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "matches": matches,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.match import Match

        d = dict(src_dict)
        matches = []
        _matches = d.pop("matches")
        for matches_item_data in _matches:
            matches_item = Match.from_dict(matches_item_data)

            matches.append(matches_item)

        list_matches_response_200 = cls(
            matches=matches,
        )

        return list_matches_response_200
