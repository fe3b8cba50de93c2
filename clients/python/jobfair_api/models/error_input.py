from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.error_input_details import ErrorInputDetails


T = TypeVar("T", bound="ErrorInput")


@_attrs_define
class ErrorInput:
    """
    Attributes:
        error (str): Human-readable message
        code (str): Stable machine-readable identifier; branch on this
        details (ErrorInputDetails | Unset): Shape depends on the code
    """

    error: str
    code: str
    details: ErrorInputDetails | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        error = self.error

        code = self.code

        details: dict[str, Any] | Unset = UNSET
        if not isinstance(self.details, Unset):
            details = self.details.to_dict()

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "error": error,
                "code": code,
            }
        )
        if details is not UNSET:
            field_dict["details"] = details

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.error_input_details import ErrorInputDetails

        d = dict(src_dict)
        error = d.pop("error")

        code = d.pop("code")

        _details = d.pop("details", UNSET)
        details: ErrorInputDetails | Unset
        if isinstance(_details, Unset):
            details = UNSET
        else:
            details = ErrorInputDetails.from_dict(_details)

        error_input = cls(
            error=error,
            code=code,
            details=details,
        )

        error_input.additional_properties = d
        return error_input

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
