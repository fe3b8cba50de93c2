from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Self, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.changelog_api_event_data_kind import ChangelogApiEventDataKind

T = TypeVar("T", bound="ChangelogApiEventData")


@_attrs_define
class ChangelogApiEventData:
    """An entry was added to the API changelog (sent to every subscription of this type).

    Attributes:
        entry_id (str): The changelog entry
        date (str): The day of the change, YYYY-MM-DD
        kind (ChangelogApiEventDataKind): What kind of change
        title (str):
        description (str):
        changelog_url (str): The entry in `GET /api/v1/changelog`
    """

    entry_id: str
    date: str
    kind: ChangelogApiEventDataKind
    title: str
    description: str
    changelog_url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        entry_id = self.entry_id

        date = self.date

        kind = self.kind.value

        title = self.title

        description = self.description

        changelog_url = self.changelog_url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "entry_id": entry_id,
                "date": date,
                "kind": kind,
                "title": title,
                "description": description,
                "changelog_url": changelog_url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls, src_dict: Mapping[str, Any]) -> Self:
        d = dict(src_dict)
        entry_id = d.pop("entry_id")

        date = d.pop("date")

        kind = ChangelogApiEventDataKind(d.pop("kind"))

        title = d.pop("title")

        description = d.pop("description")

        changelog_url = d.pop("changelog_url")

        changelog_api_event_data = cls(
            entry_id=entry_id,
            date=date,
            kind=kind,
            title=title,
            description=description,
            changelog_url=changelog_url,
        )

        changelog_api_event_data.additional_properties = d
        return changelog_api_event_data

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
