from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.live_event_input_status import LiveEventInputStatus

T = TypeVar("T", bound="LiveEventInput")


@_attrs_define
class LiveEventInput:
    """
    Attributes:
        slug (str): Event identifier used in paths
        status (LiveEventInputStatus):
        company_name (str):
        logo_url (None | str):
        accent_color (str): Hex colour `#rrggbb`
        headline (None | str):
        description (None | str):
        started_at (datetime.datetime | None):
        ends_at (datetime.datetime | None): Planned end while live or paused
        candidates_joined (int): Distinct seekers who joined the queue of this event
        matches_made (int): Matches made for this event
        job_titles (list[str]): Distinct titles of the open jobs, most recent first (at most 50)
        join_url (str): Deep link a human opens to reach the event page and join the queue
    """

    slug: str
    status: LiveEventInputStatus
    company_name: str
    logo_url: None | str
    accent_color: str
    headline: None | str
    description: None | str
    started_at: datetime.datetime | None
    ends_at: datetime.datetime | None
    candidates_joined: int
    matches_made: int
    job_titles: list[str]
    join_url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        status = self.status.value

        company_name = self.company_name

        logo_url: None | str
        logo_url = self.logo_url

        accent_color = self.accent_color

        headline: None | str
        headline = self.headline

        description: None | str
        description = self.description

        started_at: None | str
        if isinstance(self.started_at, datetime.datetime):
            started_at = self.started_at.isoformat()
        else:
            started_at = self.started_at

        ends_at: None | str
        if isinstance(self.ends_at, datetime.datetime):
            ends_at = self.ends_at.isoformat()
        else:
            ends_at = self.ends_at

        candidates_joined = self.candidates_joined

        matches_made = self.matches_made

        job_titles = self.job_titles

        join_url = self.join_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "slug": slug,
                "status": status,
                "company_name": company_name,
                "logo_url": logo_url,
                "accent_color": accent_color,
                "headline": headline,
                "description": description,
                "started_at": started_at,
                "ends_at": ends_at,
                "candidates_joined": candidates_joined,
                "matches_made": matches_made,
                "job_titles": job_titles,
                "join_url": join_url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        slug = d.pop("slug")

        status = LiveEventInputStatus(d.pop("status"))

        company_name = d.pop("company_name")

        def _parse_logo_url(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        logo_url = _parse_logo_url(d.pop("logo_url"))

        accent_color = d.pop("accent_color")

        def _parse_headline(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        headline = _parse_headline(d.pop("headline"))

        def _parse_description(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        description = _parse_description(d.pop("description"))

        def _parse_started_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                started_at_type_0 = datetime.datetime.fromisoformat(data)

                return started_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        started_at = _parse_started_at(d.pop("started_at"))

        def _parse_ends_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                ends_at_type_0 = datetime.datetime.fromisoformat(data)

                return ends_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        ends_at = _parse_ends_at(d.pop("ends_at"))

        candidates_joined = d.pop("candidates_joined")

        matches_made = d.pop("matches_made")

        job_titles = cast(list[str], d.pop("job_titles"))

        join_url = d.pop("join_url")

        live_event_input = cls(
            slug=slug,
            status=status,
            company_name=company_name,
            logo_url=logo_url,
            accent_color=accent_color,
            headline=headline,
            description=description,
            started_at=started_at,
            ends_at=ends_at,
            candidates_joined=candidates_joined,
            matches_made=matches_made,
            job_titles=job_titles,
            join_url=join_url,
        )

        live_event_input.additional_properties = d
        return live_event_input

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
