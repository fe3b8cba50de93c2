from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.settings_team_type_0 import SettingsTeamType0
    from ..models.settings_user import SettingsUser


T = TypeVar("T", bound="Settings")


@_attrs_define
class Settings:
    """
    Attributes:
        user (SettingsUser):
        team (None | SettingsTeamType0): Null for callers without a team
    """

    user: SettingsUser
    team: None | SettingsTeamType0

    def to_dict(self) -> dict[str, Any]:
        from ..models.settings_team_type_0 import SettingsTeamType0

        user = self.user.to_dict()

        team: dict[str, Any] | None
        if isinstance(self.team, SettingsTeamType0):
            team = self.team.to_dict()
        else:
            team = self.team

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "user": user,
                "team": team,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.settings_team_type_0 import SettingsTeamType0
        from ..models.settings_user import SettingsUser

        d = dict(src_dict)
        user = SettingsUser.from_dict(d.pop("user"))

        def _parse_team(data: object) -> None | SettingsTeamType0:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                team_type_0 = SettingsTeamType0.from_dict(data)

                return team_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SettingsTeamType0, data)

        team = _parse_team(d.pop("team"))

        settings = cls(
            user=user,
            team=team,
        )

        return settings
