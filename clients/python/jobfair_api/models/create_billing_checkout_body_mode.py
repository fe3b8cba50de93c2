from enum import StrEnum


class CreateBillingCheckoutBodyMode(StrEnum):
    EMBEDDED = "embedded"
    HOSTED = "hosted"

    def __str__(self) -> str:
        return str(self.value)
