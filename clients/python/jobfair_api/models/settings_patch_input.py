from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.settings_patch_input_team import SettingsPatchInputTeam
    from ..models.settings_patch_input_user import SettingsPatchInputUser


T = TypeVar("T", bound="SettingsPatchInput")


@_attrs_define
class SettingsPatchInput:
    """
    Attributes:
        user (SettingsPatchInputUser | Unset):
        team (SettingsPatchInputTeam | Unset):
    """

    user: SettingsPatchInputUser | Unset = UNSET
    team: SettingsPatchInputTeam | Unset = UNSET

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
        from ..models.settings_patch_input_team import SettingsPatchInputTeam
        from ..models.settings_patch_input_user import SettingsPatchInputUser

        d = dict(src_dict)
        _user = d.pop("user", UNSET)
        user: SettingsPatchInputUser | Unset
        if isinstance(_user, Unset):
            user = UNSET
        else:
            user = SettingsPatchInputUser.from_dict(_user)

        _team = d.pop("team", UNSET)
        team: SettingsPatchInputTeam | Unset
        if isinstance(_team, Unset):
            team = UNSET
        else:
            team = SettingsPatchInputTeam.from_dict(_team)

        settings_patch_input = cls(
            user=user,
            team=team,
        )

        return settings_patch_input
