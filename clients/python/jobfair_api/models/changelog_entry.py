from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, Self, TypeVar, cast

from attrs import define as _attrs_define

from ..models.changelog_entry_kind import ChangelogEntryKind

T = TypeVar("T", bound="ChangelogEntry")


@_attrs_define
class ChangelogEntry:
    """
    Attributes:
        id (str): Stable, never reused; the changelog.api event id is derived from it
        date (datetime.date): When the change took effect (YYYY-MM-DD)
        kind (ChangelogEntryKind): v1 only adds, changes compatibly, or deprecates; removals happen in /api/v2
        title (str):
        description (str):
        operations (list[str]): operationIds of the OpenAPI document this entry is about
    """

    id: str
    date: datetime.date
    kind: ChangelogEntryKind
    title: str
    description: str
    operations: list[str]

    def to_dict(self) -> dict[str, Any]:
        id = self.id

        date = self.date.isoformat()

        kind = self.kind.value

        title = self.title

        description = self.description

        operations = self.operations

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "id": id,
                "date": date,
                "kind": kind,
                "title": title,
                "description": description,
                "operations": operations,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        id = d.pop("id")

        date = datetime.date.fromisoformat(d.pop("date"))

        kind = ChangelogEntryKind(d.pop("kind"))

        title = d.pop("title")

        description = d.pop("description")

        operations = cast(list[str], d.pop("operations"))

        changelog_entry = cls(
            id=id,
            date=date,
            kind=kind,
            title=title,
            description=description,
            operations=operations,
        )

        return changelog_entry
