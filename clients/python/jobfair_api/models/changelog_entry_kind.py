from enum import StrEnum


class ChangelogEntryKind(StrEnum):
    ADDED = "added"
    CHANGED = "changed"
    DEPRECATED = "deprecated"
    FIXED = "fixed"
    REMOVED = "removed"

    def __str__(self) -> str:
        return str(self.value)
