from enum import StrEnum


class WebhookSubscriptionInputOwnerType(StrEnum):
    TEAM = "team"
    USER = "user"

    def __str__(self) -> str:
        return str(self.value)
