from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.live_event_update_input_visibility import LiveEventUpdateInputVisibility
from ..types import UNSET, Unset

T = TypeVar("T", bound="LiveEventUpdateInput")


@_attrs_define
class LiveEventUpdateInput:
    """
    Attributes:
        slug (str | Unset): Only while the event is a draft
        company_name (str | Unset):
        headline (None | str | Unset):
        description (None | str | Unset):
        accent_color (str | Unset): Accent colour `#rrggbb`
        logo_url (None | str | Unset):
        visibility (LiveEventUpdateInputVisibility | Unset): `open_invite` events are listed publicly while live or
            paused; `private` ones never
        planned_start_at (datetime.datetime | None | Unset):
        planned_end_at (datetime.datetime | None | Unset): Must be after planned_start_at; becomes ends_at at go-live
        interview_slots (int | Unset):
    """

    slug: str | Unset = UNSET
    company_name: str | Unset = UNSET
    headline: None | str | Unset = UNSET
    description: None | str | Unset = UNSET
    accent_color: str | Unset = UNSET
    logo_url: None | str | Unset = UNSET
    visibility: LiveEventUpdateInputVisibility | Unset = UNSET
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

        field_dict.update({})
        if slug is not UNSET:
            field_dict["slug"] = slug
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
        slug = d.pop("slug", UNSET)

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
        visibility: LiveEventUpdateInputVisibility | Unset
        if isinstance(_visibility, Unset):
            visibility = UNSET
        else:
            visibility = LiveEventUpdateInputVisibility(_visibility)

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

        live_event_update_input = cls(
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

        return live_event_update_input
