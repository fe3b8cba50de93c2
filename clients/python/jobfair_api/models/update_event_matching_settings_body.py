from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="UpdateEventMatchingSettingsBody")


@_attrs_define
class UpdateEventMatchingSettingsBody:
    """
    Attributes:
        min_score (int | None | Unset):
        require_essential (bool | None | Unset):
        relax_essential (bool | None | Unset):
        allow_remote_mismatch (bool | None | Unset):
    """

    min_score: int | None | Unset = UNSET
    require_essential: bool | None | Unset = UNSET
    relax_essential: bool | None | Unset = UNSET
    allow_remote_mismatch: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        min_score: int | None | Unset
        if isinstance(self.min_score, Unset):
            min_score = UNSET
        else:
            min_score = self.min_score

        require_essential: bool | None | Unset
        if isinstance(self.require_essential, Unset):
            require_essential = UNSET
        else:
            require_essential = self.require_essential

        relax_essential: bool | None | Unset
        if isinstance(self.relax_essential, Unset):
            relax_essential = UNSET
        else:
            relax_essential = self.relax_essential

        allow_remote_mismatch: bool | None | Unset
        if isinstance(self.allow_remote_mismatch, Unset):
            allow_remote_mismatch = UNSET
        else:
            allow_remote_mismatch = self.allow_remote_mismatch

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if min_score is not UNSET:
            field_dict["min_score"] = min_score
        if require_essential is not UNSET:
            field_dict["require_essential"] = require_essential
        if relax_essential is not UNSET:
            field_dict["relax_essential"] = relax_essential
        if allow_remote_mismatch is not UNSET:
            field_dict["allow_remote_mismatch"] = allow_remote_mismatch

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)

        def _parse_min_score(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        min_score = _parse_min_score(d.pop("min_score", UNSET))

        def _parse_require_essential(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        require_essential = _parse_require_essential(d.pop("require_essential", UNSET))

        def _parse_relax_essential(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        relax_essential = _parse_relax_essential(d.pop("relax_essential", UNSET))

        def _parse_allow_remote_mismatch(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        allow_remote_mismatch = _parse_allow_remote_mismatch(
            d.pop("allow_remote_mismatch", UNSET)
        )

        update_event_matching_settings_body = cls(
            min_score=min_score,
            require_essential=require_essential,
            relax_essential=relax_essential,
            allow_remote_mismatch=allow_remote_mismatch,
        )

        return update_event_matching_settings_body
