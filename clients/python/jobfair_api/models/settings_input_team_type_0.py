from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.settings_input_team_type_0_default_event_visibility import (
    SettingsInputTeamType0DefaultEventVisibility,
)
from ..models.settings_input_team_type_0_role import SettingsInputTeamType0Role

T = TypeVar("T", bound="SettingsInputTeamType0")


@_attrs_define
class SettingsInputTeamType0:
    """
    Attributes:
        team_id (UUID):
        name (str):
        role (SettingsInputTeamType0Role): The caller's role; owners and admins may change team settings
        auto_accept_matches (bool): Recruiters of the team accept new matches automatically (the seeker still accepts in
            the web application)
        default_event_visibility (SettingsInputTeamType0DefaultEventVisibility): Visibility of new events when POST
            /live-events does not say
        notification_email (None | str): Where team notifications go; null = each recruiter's own address
        updated_at (datetime.datetime | None):
    """

    team_id: UUID
    name: str
    role: SettingsInputTeamType0Role
    auto_accept_matches: bool
    default_event_visibility: SettingsInputTeamType0DefaultEventVisibility
    notification_email: None | str
    updated_at: datetime.datetime | None
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        team_id = str(self.team_id)

        name = self.name

        role = self.role.value

        auto_accept_matches = self.auto_accept_matches

        default_event_visibility = self.default_event_visibility.value

        notification_email: None | str
        notification_email = self.notification_email

        updated_at: None | str
        if isinstance(self.updated_at, datetime.datetime):
            updated_at = self.updated_at.isoformat()
        else:
            updated_at = self.updated_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "team_id": team_id,
                "name": name,
                "role": role,
                "auto_accept_matches": auto_accept_matches,
                "default_event_visibility": default_event_visibility,
                "notification_email": notification_email,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        team_id = UUID(d.pop("team_id"))

        name = d.pop("name")

        role = SettingsInputTeamType0Role(d.pop("role"))

        auto_accept_matches = d.pop("auto_accept_matches")

        default_event_visibility = SettingsInputTeamType0DefaultEventVisibility(
            d.pop("default_event_visibility")
        )

        def _parse_notification_email(data: object) -> None | str:
            if data is None:
                return data
            return cast(None | str, data)

        notification_email = _parse_notification_email(d.pop("notification_email"))

        def _parse_updated_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                updated_at_type_0 = datetime.datetime.fromisoformat(data)

                return updated_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        updated_at = _parse_updated_at(d.pop("updated_at"))

        settings_input_team_type_0 = cls(
            team_id=team_id,
            name=name,
            role=role,
            auto_accept_matches=auto_accept_matches,
            default_event_visibility=default_event_visibility,
            notification_email=notification_email,
            updated_at=updated_at,
        )

        settings_input_team_type_0.additional_properties = d
        return settings_input_team_type_0

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
