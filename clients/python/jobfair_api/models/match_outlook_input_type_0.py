from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.match_outlook_input_type_0_blocked_by_type_0 import (
    MatchOutlookInputType0BlockedByType0,
)
from ..models.match_outlook_input_type_0_state import MatchOutlookInputType0State
from ..types import UNSET, Unset

T = TypeVar("T", bound="MatchOutlookInputType0")


@_attrs_define
class MatchOutlookInputType0:
    """
    Attributes:
        state (MatchOutlookInputType0State): matchable: a job can still be offered; no_eligible_job: none can (declined
            or interviewed for each, or none fits) — waiting will not help; event_paused; unknown
        reason (str): One sentence for the human
        eligible_jobs (int | None): Open jobs that can still be offered: not declined, interviewed for or tried, and
            passing the quality floor now or once it relaxes (null when not counted)
        blocked_by (MatchOutlookInputType0BlockedByType0 | None | Unset): What stops an offer now, as the matchmaker
            decides it; null: the next matching round should offer one. event_not_live, no_eligible_job, below_floor (none
            passes the floor of the current bracket yet: see floor_relaxes_at), no_free_slot, recruiters_unavailable,
            recruiters_busy, ahead_in_line, offer_in_progress
        passing_jobs (int | None | Unset): Of eligible_jobs, those passing the quality floor of the current bracket
        floor_relaxes_at (datetime.datetime | None | Unset): When the quality floor next relaxes for this entry; null:
            it no longer does
    """

    state: MatchOutlookInputType0State
    reason: str
    eligible_jobs: int | None
    blocked_by: MatchOutlookInputType0BlockedByType0 | None | Unset = UNSET
    passing_jobs: int | None | Unset = UNSET
    floor_relaxes_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        state = self.state.value

        reason = self.reason

        eligible_jobs: int | None
        eligible_jobs = self.eligible_jobs

        blocked_by: None | str | Unset
        if isinstance(self.blocked_by, Unset):
            blocked_by = UNSET
        elif isinstance(self.blocked_by, MatchOutlookInputType0BlockedByType0):
            blocked_by = self.blocked_by.value
        else:
            blocked_by = self.blocked_by

        passing_jobs: int | None | Unset
        if isinstance(self.passing_jobs, Unset):
            passing_jobs = UNSET
        else:
            passing_jobs = self.passing_jobs

        floor_relaxes_at: None | str | Unset
        if isinstance(self.floor_relaxes_at, Unset):
            floor_relaxes_at = UNSET
        elif isinstance(self.floor_relaxes_at, datetime.datetime):
            floor_relaxes_at = self.floor_relaxes_at.isoformat()
        else:
            floor_relaxes_at = self.floor_relaxes_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "state": state,
                "reason": reason,
                "eligible_jobs": eligible_jobs,
            }
        )
        if blocked_by is not UNSET:
            field_dict["blocked_by"] = blocked_by
        if passing_jobs is not UNSET:
            field_dict["passing_jobs"] = passing_jobs
        if floor_relaxes_at is not UNSET:
            field_dict["floor_relaxes_at"] = floor_relaxes_at

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        state = MatchOutlookInputType0State(d.pop("state"))

        reason = d.pop("reason")

        def _parse_eligible_jobs(data: object) -> int | None:
            if data is None:
                return data
            return cast(int | None, data)

        eligible_jobs = _parse_eligible_jobs(d.pop("eligible_jobs"))

        def _parse_blocked_by(
            data: object,
        ) -> MatchOutlookInputType0BlockedByType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                blocked_by_type_0 = MatchOutlookInputType0BlockedByType0(data)

                return blocked_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(MatchOutlookInputType0BlockedByType0 | None | Unset, data)

        blocked_by = _parse_blocked_by(d.pop("blocked_by", UNSET))

        def _parse_passing_jobs(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        passing_jobs = _parse_passing_jobs(d.pop("passing_jobs", UNSET))

        def _parse_floor_relaxes_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                floor_relaxes_at_type_0 = datetime.datetime.fromisoformat(data)

                return floor_relaxes_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        floor_relaxes_at = _parse_floor_relaxes_at(d.pop("floor_relaxes_at", UNSET))

        match_outlook_input_type_0 = cls(
            state=state,
            reason=reason,
            eligible_jobs=eligible_jobs,
            blocked_by=blocked_by,
            passing_jobs=passing_jobs,
            floor_relaxes_at=floor_relaxes_at,
        )

        match_outlook_input_type_0.additional_properties = d
        return match_outlook_input_type_0

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
