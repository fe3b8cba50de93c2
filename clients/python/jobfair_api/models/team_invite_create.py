from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define

from ..models.team_invite_create_role import TeamInviteCreateRole

T = TypeVar("T", bound="TeamInviteCreate")


@_attrs_define
class TeamInviteCreate:
    """
    Attributes:
        email (str):
        role (TeamInviteCreateRole):  Default: TeamInviteCreateRole.MEMBER.
    """

    email: str
    role: TeamInviteCreateRole = TeamInviteCreateRole.MEMBER

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        role = self.role.value

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "email": email,
                "role": role,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        email = d.pop("email")

        role = TeamInviteCreateRole(d.pop("role"))

        team_invite_create = cls(
            email=email,
            role=role,
        )

        return team_invite_create
