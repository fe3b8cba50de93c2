from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast
from uuid import UUID

from attrs import define as _attrs_define

from ..models.team_invite_role import TeamInviteRole
from ..models.team_invite_status import TeamInviteStatus

T = TypeVar("T", bound="TeamInvite")


@_attrs_define
class TeamInvite:
    """
    Attributes:
        id (UUID):
        email (str):
        role (TeamInviteRole):
        status (TeamInviteStatus):
        invited_by (None | UUID):
        accepted_by (None | UUID):
        expires_at (datetime.datetime):
        accepted_at (datetime.datetime | None):
        revoked_at (datetime.datetime | None):
        created_at (datetime.datetime):
    """

    id: UUID
    email: str
    role: TeamInviteRole
    status: TeamInviteStatus
    invited_by: None | UUID
    accepted_by: None | UUID
    expires_at: datetime.datetime
    accepted_at: datetime.datetime | None
    revoked_at: datetime.datetime | None
    created_at: datetime.datetime

    def to_dict(self) -> dict[str, Any]:
        id = str(self.id)

        email = self.email

        role = self.role.value

        status = self.status.value

        invited_by: None | str
        if isinstance(self.invited_by, UUID):
            invited_by = str(self.invited_by)
        else:
            invited_by = self.invited_by

        accepted_by: None | str
        if isinstance(self.accepted_by, UUID):
            accepted_by = str(self.accepted_by)
        else:
            accepted_by = self.accepted_by

        expires_at = self.expires_at.isoformat()

        accepted_at: None | str
        if isinstance(self.accepted_at, datetime.datetime):
            accepted_at = self.accepted_at.isoformat()
        else:
            accepted_at = self.accepted_at

        revoked_at: None | str
        if isinstance(self.revoked_at, datetime.datetime):
            revoked_at = self.revoked_at.isoformat()
        else:
            revoked_at = self.revoked_at

        created_at = self.created_at.isoformat()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "email": email,
                "role": role,
                "status": status,
                "invited_by": invited_by,
                "accepted_by": accepted_by,
                "expires_at": expires_at,
                "accepted_at": accepted_at,
                "revoked_at": revoked_at,
                "created_at": created_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = UUID(d.pop("id"))

        email = d.pop("email")

        role = TeamInviteRole(d.pop("role"))

        status = TeamInviteStatus(d.pop("status"))

        def _parse_invited_by(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                invited_by_type_0 = UUID(data)

                return invited_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        invited_by = _parse_invited_by(d.pop("invited_by"))

        def _parse_accepted_by(data: object) -> None | UUID:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                accepted_by_type_0 = UUID(data)

                return accepted_by_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | UUID, data)

        accepted_by = _parse_accepted_by(d.pop("accepted_by"))

        expires_at = datetime.datetime.fromisoformat(d.pop("expires_at"))

        def _parse_accepted_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                accepted_at_type_0 = datetime.datetime.fromisoformat(data)

                return accepted_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        accepted_at = _parse_accepted_at(d.pop("accepted_at"))

        def _parse_revoked_at(data: object) -> datetime.datetime | None:
            if data is None:
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                revoked_at_type_0 = datetime.datetime.fromisoformat(data)

                return revoked_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None, data)

        revoked_at = _parse_revoked_at(d.pop("revoked_at"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        team_invite = cls(
            id=id,
            email=email,
            role=role,
            status=status,
            invited_by=invited_by,
            accepted_by=accepted_by,
            expires_at=expires_at,
            accepted_at=accepted_at,
            revoked_at=revoked_at,
            created_at=created_at,
        )

        return team_invite
