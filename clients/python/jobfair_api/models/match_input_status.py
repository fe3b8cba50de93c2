from enum import StrEnum


class MatchInputStatus(StrEnum):
    ACCEPTED = "accepted"
    COMPLETED = "completed"
    DECLINED = "declined"
    EXPIRED = "expired"
    MATCHED = "matched"
    NO_SHOW = "no_show"

    def __str__(self) -> str:
        return str(self.value)
