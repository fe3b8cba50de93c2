from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="SettingsUser")


@_attrs_define
class SettingsUser:
    """
    Attributes:
        email (str): The account e-mail
        notification_email (None | str): Where notifications go; null = the account e-mail
        updated_at (datetime.datetime | None):
    """

    email: str
    notification_email: None | str
    updated_at: datetime.datetime | None

    def to_dict(self) -> dict[str, Any]:
        email = self.email

        notification_email: None | str
        notification_email = self.notification_email

        updated_at: None | str
        if isinstance(self.updated_at, datetime.datetime):
            updated_at = self.updated_at.isoformat()
        else:
            updated_at = self.updated_at

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "email": email,
                "notification_email": notification_email,
                "updated_at": updated_at,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        email = d.pop("email")

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

        settings_user = cls(
            email=email,
            notification_email=notification_email,
            updated_at=updated_at,
        )

        return settings_user
