from enum import StrEnum


class TeamJobEventStatus(StrEnum):
    DRAFT = "draft"
    ENDED = "ended"
    LIVE = "live"
    PAUSED = "paused"

    def __str__(self) -> str:
        return str(self.value)
