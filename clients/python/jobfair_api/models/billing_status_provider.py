from enum import StrEnum


class BillingStatusProvider(StrEnum):
    LOCAL = "local"
    STRIPE = "stripe"

    def __str__(self) -> str:
        return str(self.value)
