from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

if TYPE_CHECKING:
    from ..models.settings_input_team_type_0 import SettingsInputTeamType0
    from ..models.settings_input_user import SettingsInputUser


T = TypeVar("T", bound="SettingsInput")


@_attrs_define
class SettingsInput:
    """
    Attributes:
        user (SettingsInputUser):
        team (None | SettingsInputTeamType0): Null for callers without a team
    """

    user: SettingsInputUser
    team: None | SettingsInputTeamType0
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.settings_input_team_type_0 import SettingsInputTeamType0

        user = self.user.to_dict()

        team: dict[str, Any] | None
        if isinstance(self.team, SettingsInputTeamType0):
            team = self.team.to_dict()
        else:
            team = self.team

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "user": user,
                "team": team,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.settings_input_team_type_0 import SettingsInputTeamType0
        from ..models.settings_input_user import SettingsInputUser

        d = dict(src_dict)
        user = SettingsInputUser.from_dict(d.pop("user"))

        def _parse_team(data: object) -> None | SettingsInputTeamType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                team_type_0 = SettingsInputTeamType0.from_dict(data)

                return team_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SettingsInputTeamType0, data)

        team = _parse_team(d.pop("team"))

        settings_input = cls(
            user=user,
            team=team,
        )

        settings_input.additional_properties = d
        return settings_input

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
