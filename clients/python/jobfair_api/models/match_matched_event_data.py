from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MatchMatchedEventData")


@_attrs_define
class MatchMatchedEventData:
    """A match is made: sent to team subscriptions of the job's team and user subscriptions of the seeker.

    Attributes:
        match_id (str): The match (`GET /api/v1/matches/{id}`)
        role_title (str): The job's title
        seeker_headline (str): The seeker's headline; "" when they have none
    """

    match_id: str
    role_title: str
    seeker_headline: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        match_id = self.match_id

        role_title = self.role_title

        seeker_headline = self.seeker_headline

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "match_id": match_id,
                "role_title": role_title,
                "seeker_headline": seeker_headline,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        match_id = d.pop("match_id")

        role_title = d.pop("role_title")

        seeker_headline = d.pop("seeker_headline")

        match_matched_event_data = cls(
            match_id=match_id,
            role_title=role_title,
            seeker_headline=seeker_headline,
        )

        match_matched_event_data.additional_properties = d
        return match_matched_event_data

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
