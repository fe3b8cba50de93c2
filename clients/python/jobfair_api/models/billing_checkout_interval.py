from enum import StrEnum


class BillingCheckoutInterval(StrEnum):
    MONTH = "month"
    YEAR = "year"

    def __str__(self) -> str:
        return str(self.value)
