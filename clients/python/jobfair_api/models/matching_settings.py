from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.matching_settings_brackets_item import MatchingSettingsBracketsItem
    from ..models.matching_settings_floors_item import MatchingSettingsFloorsItem
    from ..models.recruiter_availability import RecruiterAvailability


T = TypeVar("T", bound="MatchingSettings")


@_attrs_define
class MatchingSettings:
    """
    Attributes:
        event_id (UUID):
        min_score (int | None): The event's minimum match score; null = the default
        require_essential (bool | None): At least one of a job's essential skills; null = the default (true)
        default_min_score (int): MATCH_MIN_SCORE
        brackets (list[MatchingSettingsBracketsItem]): How the floor relaxes as a seeker waits: from after_seconds,
            min_score − relax_points; essential_required false lifts the essential-skill rule where relax_essential allows
            it
        recruiters (list[RecruiterAvailability]): Empty: the event-level interview_slots alone; otherwise offers go
            round-robin to available recruiters with room
        relax_essential (bool | None | Unset): Let the brackets that lift the essential-skill rule (essential_required
            false) lift it at this event; null = the default (false): a pair sharing none of a job's essential skills is
            never offered, however long the seeker waits
        allow_remote_mismatch (bool | None | Unset): Offer pairs whose remote modes cannot meet (a seeker who wants
            fully remote work and an on-site job); null = the default (false): never
        floors (list[MatchingSettingsFloorsItem] | Unset): What the floor allows at this event from each bracket on,
            with the event's settings applied
    """

    event_id: UUID
    min_score: int | None
    require_essential: bool | None
    default_min_score: int
    brackets: list[MatchingSettingsBracketsItem]
    recruiters: list[RecruiterAvailability]
    relax_essential: bool | None | Unset = UNSET
    allow_remote_mismatch: bool | None | Unset = UNSET
    floors: list[MatchingSettingsFloorsItem] | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        event_id = str(self.event_id)

        min_score: int | None
        min_score = self.min_score

        require_essential: bool | None
        require_essential = self.require_essential

        default_min_score = self.default_min_score

        brackets = []
        for brackets_item_data in self.brackets:
            brackets_item = brackets_item_data.to_dict()
            brackets.append(brackets_item)

        recruiters = []
        for recruiters_item_data in self.recruiters:
            recruiters_item = recruiters_item_data.to_dict()
            recruiters.append(recruiters_item)

        relax_essential: bool | None | Unset
        if isinstance(self.relax_essential, Unset):
            relax_essential = UNSET
        else:
            relax_essential = self.relax_essential

        allow_remote_mismatch: bool | None | Unset
        if isinstance(self.allow_remote_mismatch, Unset):
            allow_remote_mismatch = UNSET
        else:
            allow_remote_mismatch = self.allow_remote_mismatch

        floors: list[dict[str, Any]] | Unset = UNSET
        if not isinstance(self.floors, Unset):
            floors = []
            for floors_item_data in self.floors:
                floors_item = floors_item_data.to_dict()
                floors.append(floors_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "event_id": event_id,
                "min_score": min_score,
                "require_essential": require_essential,
                "default_min_score": default_min_score,
                "brackets": brackets,
                "recruiters": recruiters,
            }
        )
        if relax_essential is not UNSET:
            field_dict["relax_essential"] = relax_essential
        if allow_remote_mismatch is not UNSET:
            field_dict["allow_remote_mismatch"] = allow_remote_mismatch
        if floors is not UNSET:
            field_dict["floors"] = floors

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.matching_settings_brackets_item import (
            MatchingSettingsBracketsItem,
        )
        from ..models.matching_settings_floors_item import MatchingSettingsFloorsItem
        from ..models.recruiter_availability import RecruiterAvailability

        d = dict(src_dict)
        event_id = UUID(d.pop("event_id"))

        def _parse_min_score(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        min_score = _parse_min_score(d.pop("min_score"))

        def _parse_require_essential(data: object) -> bool | None:
            if data is None:
                return data
            return cast(bool | None, data)

        require_essential = _parse_require_essential(d.pop("require_essential"))

        default_min_score = d.pop("default_min_score")

        brackets = []
        _brackets = d.pop("brackets")
        for brackets_item_data in _brackets:
            brackets_item = MatchingSettingsBracketsItem.from_dict(brackets_item_data)

            brackets.append(brackets_item)

        recruiters = []
        _recruiters = d.pop("recruiters")
        for recruiters_item_data in _recruiters:
            recruiters_item = RecruiterAvailability.from_dict(recruiters_item_data)

            recruiters.append(recruiters_item)

        def _parse_relax_essential(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        relax_essential = _parse_relax_essential(d.pop("relax_essential", UNSET))

        def _parse_allow_remote_mismatch(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        allow_remote_mismatch = _parse_allow_remote_mismatch(
            d.pop("allow_remote_mismatch", UNSET)
        )

        _floors = d.pop("floors", UNSET)
        floors: list[MatchingSettingsFloorsItem] | Unset = UNSET
        if _floors is not UNSET:
            floors = []
            for floors_item_data in _floors:
                floors_item = MatchingSettingsFloorsItem.from_dict(floors_item_data)

                floors.append(floors_item)

        matching_settings = cls(
            event_id=event_id,
            min_score=min_score,
            require_essential=require_essential,
            default_min_score=default_min_score,
            brackets=brackets,
            recruiters=recruiters,
            relax_essential=relax_essential,
            allow_remote_mismatch=allow_remote_mismatch,
            floors=floors,
        )

        return matching_settings
