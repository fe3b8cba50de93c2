from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.team_invite import TeamInvite


T = TypeVar("T", bound="RevokeTeamInviteResponse200")


@_attrs_define
class RevokeTeamInviteResponse200:
    """
    Attributes:
        invite (TeamInvite):
    """

    invite: TeamInvite

    def to_dict(self) -> dict[str, Any]:
        invite = self.invite.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "invite": invite,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.team_invite import TeamInvite

        d = dict(src_dict)
        invite = TeamInvite.from_dict(d.pop("invite"))

        revoke_team_invite_response_200 = cls(
            invite=invite,
        )

        return revoke_team_invite_response_200
