from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.settings_patch_team import SettingsPatchTeam
    from ..models.settings_patch_user import SettingsPatchUser


T = TypeVar("T", bound="SettingsPatch")


@_attrs_define
class SettingsPatch:
    """
    Attributes:
        user (SettingsPatchUser | Unset):
        team (SettingsPatchTeam | Unset):
    """

    user: SettingsPatchUser | Unset = UNSET
    team: SettingsPatchTeam | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        user: dict[str, Any] | Unset = UNSET
        if not isinstance(self.user, Unset):
            user = self.user.to_dict()

        team: dict[str, Any] | Unset = UNSET
        if not isinstance(self.team, Unset):
            team = self.team.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if user is not UNSET:
            field_dict["user"] = user
        if team is not UNSET:
            field_dict["team"] = team

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.settings_patch_team import SettingsPatchTeam
        from ..models.settings_patch_user import SettingsPatchUser

        d = dict(src_dict)
        _user = d.pop("user", UNSET)
        user: SettingsPatchUser | Unset
        if isinstance(_user, Unset):
            user = UNSET
        else:
            user = SettingsPatchUser.from_dict(_user)

        _team = d.pop("team", UNSET)
        team: SettingsPatchTeam | Unset
        if isinstance(_team, Unset):
            team = UNSET
        else:
            team = SettingsPatchTeam.from_dict(_team)

        settings_patch = cls(
            user=user,
            team=team,
        )

        return settings_patch
