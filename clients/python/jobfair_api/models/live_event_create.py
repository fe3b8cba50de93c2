from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.live_event_create_visibility import LiveEventCreateVisibility
from ..types import UNSET, Unset

T = TypeVar("T", bound="LiveEventCreate")


@_attrs_define
class LiveEventCreate:
    """
    Attributes:
        slug (str): Unique, 3–64 characters of `[a-z0-9-]`, not shaped like a UUID; used in URLs
        company_name (str | Unset): Default: the team's name
        headline (None | str | Unset):
        description (None | str | Unset):
        accent_color (str | Unset): Default #1f6feb
        logo_url (None | str | Unset):
        visibility (LiveEventCreateVisibility | Unset): Default: the team setting default_event_visibility
        planned_start_at (datetime.datetime | None | Unset):
        planned_end_at (datetime.datetime | None | Unset): Must be after planned_start_at; becomes ends_at at go-live
        interview_slots (int | Unset): Default 1
    """

    slug: str
    company_name: str | Unset = UNSET
    headline: None | str | Unset = UNSET
    description: None | str | Unset = UNSET
    accent_color: str | Unset = UNSET
    logo_url: None | str | Unset = UNSET
    visibility: LiveEventCreateVisibility | Unset = UNSET
    planned_start_at: datetime.datetime | None | Unset = UNSET
    planned_end_at: datetime.datetime | None | Unset = UNSET
    interview_slots: int | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        slug = self.slug

        company_name = self.company_name

        headline: None | str | Unset
        if isinstance(self.headline, Unset):
            headline = UNSET
        else:
            headline = self.headline

        description: None | str | Unset
        if isinstance(self.description, Unset):
            description = UNSET
        else:
            description = self.description

        accent_color = self.accent_color

        logo_url: None | str | Unset
        if isinstance(self.logo_url, Unset):
            logo_url = UNSET
        else:
            logo_url = self.logo_url

        visibility: str | Unset = UNSET
        if not isinstance(self.visibility, Unset):
            visibility = self.visibility.value

        planned_start_at: None | str | Unset
        if isinstance(self.planned_start_at, Unset):
            planned_start_at = UNSET
        elif isinstance(self.planned_start_at, datetime.datetime):
            planned_start_at = self.planned_start_at.isoformat()
        else:
            planned_start_at = self.planned_start_at

        planned_end_at: None | str | Unset
        if isinstance(self.planned_end_at, Unset):
            planned_end_at = UNSET
        elif isinstance(self.planned_end_at, datetime.datetime):
            planned_end_at = self.planned_end_at.isoformat()
        else:
            planned_end_at = self.planned_end_at

        interview_slots = self.interview_slots

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "slug": slug,
            }
        )
        if company_name is not UNSET:
            field_dict["company_name"] = company_name
        if headline is not UNSET:
            field_dict["headline"] = headline
        if description is not UNSET:
            field_dict["description"] = description
        if accent_color is not UNSET:
            field_dict["accent_color"] = accent_color
        if logo_url is not UNSET:
            field_dict["logo_url"] = logo_url
        if visibility is not UNSET:
            field_dict["visibility"] = visibility
        if planned_start_at is not UNSET:
            field_dict["planned_start_at"] = planned_start_at
        if planned_end_at is not UNSET:
            field_dict["planned_end_at"] = planned_end_at
        if interview_slots is not UNSET:
            field_dict["interview_slots"] = interview_slots

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        slug = d.pop("slug")

        company_name = d.pop("company_name", UNSET)

        def _parse_headline(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        headline = _parse_headline(d.pop("headline", UNSET))

        def _parse_description(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        description = _parse_description(d.pop("description", UNSET))

        accent_color = d.pop("accent_color", UNSET)

        def _parse_logo_url(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        logo_url = _parse_logo_url(d.pop("logo_url", UNSET))

        _visibility = d.pop("visibility", UNSET)
        visibility: LiveEventCreateVisibility | Unset
        if isinstance(_visibility, Unset):
            visibility = UNSET
        else:
            visibility = LiveEventCreateVisibility(_visibility)

        def _parse_planned_start_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                planned_start_at_type_0 = datetime.datetime.fromisoformat(data)

                return planned_start_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        planned_start_at = _parse_planned_start_at(d.pop("planned_start_at", UNSET))

        def _parse_planned_end_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                planned_end_at_type_0 = datetime.datetime.fromisoformat(data)

                return planned_end_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        planned_end_at = _parse_planned_end_at(d.pop("planned_end_at", UNSET))

        interview_slots = d.pop("interview_slots", UNSET)

        live_event_create = cls(
            slug=slug,
            company_name=company_name,
            headline=headline,
            description=description,
            accent_color=accent_color,
            logo_url=logo_url,
            visibility=visibility,
            planned_start_at=planned_start_at,
            planned_end_at=planned_end_at,
            interview_slots=interview_slots,
        )

        return live_event_create
