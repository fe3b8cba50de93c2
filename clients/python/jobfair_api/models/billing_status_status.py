from enum import StrEnum


class BillingStatusStatus(StrEnum):
    ACTIVE = "active"
    CANCELED = "canceled"
    INCOMPLETE = "incomplete"
    PAST_DUE = "past_due"

    def __str__(self) -> str:
        return str(self.value)
