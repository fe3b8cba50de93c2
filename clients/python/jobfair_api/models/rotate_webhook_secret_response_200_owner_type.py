from enum import StrEnum


class RotateWebhookSecretResponse200OwnerType(StrEnum):
    TEAM = "team"
    USER = "user"

    def __str__(self) -> str:
        return str(self.value)
