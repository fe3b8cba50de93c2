from enum import StrEnum


class CreateBillingCheckoutBodyInterval(StrEnum):
    MONTH = "month"
    YEAR = "year"

    def __str__(self) -> str:
        return str(self.value)
