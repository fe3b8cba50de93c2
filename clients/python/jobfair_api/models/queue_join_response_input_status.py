from enum import StrEnum


class QueueJoinResponseInputStatus(StrEnum):
    WAITING = "waiting"

    def __str__(self) -> str:
        return str(self.value)
