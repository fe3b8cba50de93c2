from enum import StrEnum


class LiveEventUpdateVisibility(StrEnum):
    OPEN_INVITE = "open_invite"
    PRIVATE = "private"

    def __str__(self) -> str:
        return str(self.value)
