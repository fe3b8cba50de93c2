from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.team_invite_create_input_role import TeamInviteCreateInputRole
from ..types import UNSET, Unset

T = TypeVar("T", bound="TeamInviteCreateInput")


@_attrs_define
class TeamInviteCreateInput:
    """
    Attributes:
        email (str):
        role (TeamInviteCreateInputRole | Unset):  Default: TeamInviteCreateInputRole.MEMBER.
    """

    email: str
    role: TeamInviteCreateInputRole | Unset = TeamInviteCreateInputRole.MEMBER

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        role: str | Unset = UNSET
        if not isinstance(self.role, Unset):
            role = self.role.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "email": email,
            }
        )
        if role is not UNSET:
            field_dict["role"] = role

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        email = d.pop("email")

        _role = d.pop("role", UNSET)
        role: TeamInviteCreateInputRole | Unset
        if isinstance(_role, Unset):
            role = UNSET
        else:
            role = TeamInviteCreateInputRole(_role)

        team_invite_create_input = cls(
            email=email,
            role=role,
        )

        return team_invite_create_input
