from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="MatchAcceptedEventData")


@_attrs_define
class MatchAcceptedEventData:
    """Both sides of a match accepted it in the web application.

    Attributes:
        match_id (str): The match (`GET /api/v1/matches/{id}`)
        job_id (str): The job the match is for
        role_title (str): The job's title
        live_event_slug (str): The live event the match was made at
        accepted_at (datetime.datetime): When the second side accepted
        recruiter_auto_accepted (bool): True when the team's settings accepted for the recruiters
        recruiter_user_id (None | str): The interviewer: whoever of the team accepted; null when unknown (auto-accepted)
    """

    match_id: str
    job_id: str
    role_title: str
    live_event_slug: str
    accepted_at: datetime.datetime
    recruiter_auto_accepted: bool
    recruiter_user_id: None | str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        match_id = self.match_id

        job_id = self.job_id

        role_title = self.role_title

        live_event_slug = self.live_event_slug

        accepted_at = self.accepted_at.isoformat()

        recruiter_auto_accepted = self.recruiter_auto_accepted

        recruiter_user_id: None | str
        recruiter_user_id = self.recruiter_user_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "match_id": match_id,
                "job_id": job_id,
                "role_title": role_title,
                "live_event_slug": live_event_slug,
                "accepted_at": accepted_at,
                "recruiter_auto_accepted": recruiter_auto_accepted,
                "recruiter_user_id": recruiter_user_id,
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

        accepted_at = datetime.datetime.fromisoformat(d.pop("accepted_at"))

        recruiter_auto_accepted = d.pop("recruiter_auto_accepted")

        def _parse_recruiter_user_id(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        recruiter_user_id = _parse_recruiter_user_id(d.pop("recruiter_user_id"))

        match_accepted_event_data = cls(
            match_id=match_id,
            job_id=job_id,
            role_title=role_title,
            live_event_slug=live_event_slug,
            accepted_at=accepted_at,
            recruiter_auto_accepted=recruiter_auto_accepted,
            recruiter_user_id=recruiter_user_id,
        )

        match_accepted_event_data.additional_properties = d
        return match_accepted_event_data

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
