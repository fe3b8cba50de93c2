from enum import StrEnum


class BillingCheckoutInputMode(StrEnum):
    EMBEDDED = "embedded"
    HOSTED = "hosted"

    def __str__(self) -> str:
        return str(self.value)
