from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SettingsPatchInputUser")


@_attrs_define
class SettingsPatchInputUser:
    """
    Attributes:
        notification_email (None | str | Unset):
    """

    notification_email: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        notification_email: None | str | Unset
        if isinstance(self.notification_email, Unset):
            notification_email = UNSET
        else:
            notification_email = self.notification_email

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if notification_email is not UNSET:
            field_dict["notification_email"] = notification_email

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_notification_email(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notification_email = _parse_notification_email(
            d.pop("notification_email", UNSET)
        )

        settings_patch_input_user = cls(
            notification_email=notification_email,
        )

        return settings_patch_input_user
