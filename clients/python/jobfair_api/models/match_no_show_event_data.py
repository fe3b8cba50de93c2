from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.match_no_show_event_data_missing import MatchNoShowEventDataMissing

T = TypeVar("T", bound="MatchNoShowEventData")


@_attrs_define
class MatchNoShowEventData:
    """An accepted match ended without an interview: someone did not come to the interview room within the grace time
    (never also interview.completed).

        Attributes:
            match_id (str): The match (`GET /api/v1/matches/{id}`)
            job_id (str): The job the match is for
            role_title (str): The job's title
            live_event_slug (str): The live event the match was made at
            accepted_at (datetime.datetime | None): When the match was accepted
            no_show_at (datetime.datetime): When the grace time to come to the room ran out
            missing (MatchNoShowEventDataMissing): Who did not come to the interview room
    """

    match_id: str
    job_id: str
    role_title: str
    live_event_slug: str
    accepted_at: datetime.datetime | None
    no_show_at: datetime.datetime
    missing: MatchNoShowEventDataMissing
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        match_id = self.match_id

        job_id = self.job_id

        role_title = self.role_title

        live_event_slug = self.live_event_slug

        accepted_at: None | str
        if isinstance(self.accepted_at, datetime.datetime):
            accepted_at = self.accepted_at.isoformat()
        else:
            accepted_at = self.accepted_at

        no_show_at = self.no_show_at.isoformat()

        missing = self.missing.value

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "match_id": match_id,
                "job_id": job_id,
                "role_title": role_title,
                "live_event_slug": live_event_slug,
                "accepted_at": accepted_at,
                "no_show_at": no_show_at,
                "missing": missing,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        match_id = d.pop("match_id")

        job_id = d.pop("job_id")

        role_title = d.pop("role_title")

        live_event_slug = d.pop("live_event_slug")

        def _parse_accepted_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                accepted_at_type_0 = datetime.datetime.fromisoformat(data)

                return accepted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        accepted_at = _parse_accepted_at(d.pop("accepted_at"))

        no_show_at = datetime.datetime.fromisoformat(d.pop("no_show_at"))

        missing = MatchNoShowEventDataMissing(d.pop("missing"))

        match_no_show_event_data = cls(
            match_id=match_id,
            job_id=job_id,
            role_title=role_title,
            live_event_slug=live_event_slug,
            accepted_at=accepted_at,
            no_show_at=no_show_at,
            missing=missing,
        )

        match_no_show_event_data.additional_properties = d
        return match_no_show_event_data

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
