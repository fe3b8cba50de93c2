from enum import StrEnum


class WebhookTestResultInputState(StrEnum):
    CANCELLED = "cancelled"
    DEAD_LETTER = "dead_letter"
    DELIVERED = "delivered"
    NOT_ACCEPTED_PAUSED = "not_accepted_paused"
    OVERSIZE = "oversize"
    PENDING = "pending"
    RETRYING = "retrying"

    def __str__(self) -> str:
        return str(self.value)
