from enum import StrEnum


class WebhookSubscriptionCreatedInputOwnerType(StrEnum):
    TEAM = "team"
    USER = "user"

    def __str__(self) -> str:
        return str(self.value)
