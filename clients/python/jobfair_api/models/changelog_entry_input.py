from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.changelog_entry_input_kind import ChangelogEntryInputKind
from ..types import UNSET, Unset

T = TypeVar("T", bound="ChangelogEntryInput")


@_attrs_define
class ChangelogEntryInput:
    """
    Attributes:
        id (str): Stable, never reused; the changelog.api event id is derived from it
        date (datetime.date): When the change took effect (YYYY-MM-DD)
        kind (ChangelogEntryInputKind): v1 only adds, changes compatibly, or deprecates; removals happen in /api/v2
        title (str):
        description (str):
        operations (list[str] | Unset): operationIds of the OpenAPI document this entry is about
    """

    id: str
    date: datetime.date
    kind: ChangelogEntryInputKind
    title: str
    description: str
    operations: list[str] | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        date = self.date.isoformat()

        kind = self.kind.value

        title = self.title

        description = self.description

        operations: list[str] | Unset = UNSET
        if not isinstance(self.operations, Unset):
            operations = self.operations

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "id": id,
                "date": date,
                "kind": kind,
                "title": title,
                "description": description,
            }
        )
        if operations is not UNSET:
            field_dict["operations"] = operations

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        date = datetime.date.fromisoformat(d.pop("date"))

        kind = ChangelogEntryInputKind(d.pop("kind"))

        title = d.pop("title")

        description = d.pop("description")

        operations = cast(list[str], d.pop("operations", UNSET))

        changelog_entry_input = cls(
            id=id,
            date=date,
            kind=kind,
            title=title,
            description=description,
            operations=operations,
        )

        changelog_entry_input.additional_properties = d
        return changelog_entry_input

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
