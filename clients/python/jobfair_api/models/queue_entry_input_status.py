from enum import StrEnum


class QueueEntryInputStatus(StrEnum):
    EXPIRED = "expired"
    LEFT = "left"
    MATCHED = "matched"
    WAITING = "waiting"

    def __str__(self) -> str:
        return str(self.value)
