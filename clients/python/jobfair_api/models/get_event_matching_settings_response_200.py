from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.matching_settings import MatchingSettings


T = TypeVar("T", bound="GetEventMatchingSettingsResponse200")


@_attrs_define
class GetEventMatchingSettingsResponse200:
    """
    Attributes:
        matching (MatchingSettings):
    """

    matching: MatchingSettings

    def to_dict(self) -> dict[str, Any]:
        matching = self.matching.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "matching": matching,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.matching_settings import MatchingSettings

        d = dict(src_dict)
        matching = MatchingSettings.from_dict(d.pop("matching"))

        get_event_matching_settings_response_200 = cls(
            matching=matching,
        )

        return get_event_matching_settings_response_200
