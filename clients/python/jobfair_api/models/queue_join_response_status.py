from enum import StrEnum


class QueueJoinResponseStatus(StrEnum):
    WAITING = "waiting"

    def __str__(self) -> str:
        return str(self.value)
