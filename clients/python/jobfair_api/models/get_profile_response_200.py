from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar, cast

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.profile import Profile


T = TypeVar("T", bound="GetProfileResponse200")


@_attrs_define
class GetProfileResponse200:
    """
    Attributes:
        profile (None | Profile):
    """

    profile: None | Profile

    def to_dict(self) -> dict[str, Any]:
        from ..models.profile import Profile

        profile: dict[str, Any] | None
        if isinstance(self.profile, Profile):
            profile = self.profile.to_dict()
        else:
            profile = self.profile

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "profile": profile,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.profile import Profile

        d = dict(src_dict)

        def _parse_profile(data: object) -> None | Profile:
            if data is None:
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                profile_type_0 = Profile.from_dict(data)

                return profile_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Profile, data)

        profile = _parse_profile(d.pop("profile"))

        get_profile_response_200 = cls(
            profile=profile,
        )

        return get_profile_response_200
