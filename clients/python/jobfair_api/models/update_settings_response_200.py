from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.settings import Settings


T = TypeVar("T", bound="UpdateSettingsResponse200")


@_attrs_define
class UpdateSettingsResponse200:
    """
    Attributes:
        settings (Settings):
    """

    settings: Settings

    def to_dict(self) -> dict[str, Any]:
        settings = self.settings.to_dict()

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "settings": settings,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.settings import Settings

        d = dict(src_dict)
        settings = Settings.from_dict(d.pop("settings"))

        update_settings_response_200 = cls(
            settings=settings,
        )

        return update_settings_response_200
