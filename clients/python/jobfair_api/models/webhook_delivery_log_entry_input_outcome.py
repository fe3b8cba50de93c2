from enum import StrEnum


class WebhookDeliveryLogEntryInputOutcome(StrEnum):
    FAILURE = "failure"
    NOT_SENT = "not_sent"
    SUCCESS = "success"

    def __str__(self) -> str:
        return str(self.value)
