from enum import StrEnum


class BillingCheckoutMode(StrEnum):
    EMBEDDED = "embedded"
    HOSTED = "hosted"

    def __str__(self) -> str:
        return str(self.value)
