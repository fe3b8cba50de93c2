from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Self, TypeVar

from attrs import define as _attrs_define

if TYPE_CHECKING:
    from ..models.changelog_entry import ChangelogEntry


T = TypeVar("T", bound="GetApiChangelogResponse200")


@_attrs_define
class GetApiChangelogResponse200:
    """
    Attributes:
        entries (list[ChangelogEntry]):
    """

    entries: list[ChangelogEntry]

    def to_dict(self) -> dict[str, Any]:
        entries = []
        for entries_item_data in self.entries:
            entries_item = entries_item_data.to_dict()
            entries.append(entries_item)

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "entries": entries,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        from ..models.changelog_entry import ChangelogEntry

        d = dict(src_dict)
        entries = []
        _entries = d.pop("entries")
        for entries_item_data in _entries:
            entries_item = ChangelogEntry.from_dict(entries_item_data)

            entries.append(entries_item)

        get_api_changelog_response_200 = cls(
            entries=entries,
        )

        return get_api_changelog_response_200
