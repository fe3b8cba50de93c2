from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.settings_patch_input_team_default_event_visibility import (
    SettingsPatchInputTeamDefaultEventVisibility,
)
from ..types import UNSET, Unset

T = TypeVar("T", bound="SettingsPatchInputTeam")


@_attrs_define
class SettingsPatchInputTeam:
    """
    Attributes:
        auto_accept_matches (bool | Unset):
        default_event_visibility (SettingsPatchInputTeamDefaultEventVisibility | Unset):
        notification_email (None | str | Unset):
    """

    auto_accept_matches: bool | Unset = UNSET
    default_event_visibility: SettingsPatchInputTeamDefaultEventVisibility | Unset = (
        UNSET
    )
    notification_email: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        auto_accept_matches = self.auto_accept_matches

        default_event_visibility: str | Unset = UNSET
        if not isinstance(self.default_event_visibility, Unset):
            default_event_visibility = self.default_event_visibility.value

        notification_email: None | str | Unset
        if isinstance(self.notification_email, Unset):
            notification_email = UNSET
        else:
            notification_email = self.notification_email

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if auto_accept_matches is not UNSET:
            field_dict["auto_accept_matches"] = auto_accept_matches
        if default_event_visibility is not UNSET:
            field_dict["default_event_visibility"] = default_event_visibility
        if notification_email is not UNSET:
            field_dict["notification_email"] = notification_email

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        auto_accept_matches = d.pop("auto_accept_matches", UNSET)

        _default_event_visibility = d.pop("default_event_visibility", UNSET)
        default_event_visibility: SettingsPatchInputTeamDefaultEventVisibility | Unset
        if isinstance(_default_event_visibility, Unset):
            default_event_visibility = UNSET
        else:
            default_event_visibility = SettingsPatchInputTeamDefaultEventVisibility(
                _default_event_visibility
            )

        def _parse_notification_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notification_email = _parse_notification_email(
            d.pop("notification_email", UNSET)
        )

        settings_patch_input_team = cls(
            auto_accept_matches=auto_accept_matches,
            default_event_visibility=default_event_visibility,
            notification_email=notification_email,
        )

        return settings_patch_input_team
