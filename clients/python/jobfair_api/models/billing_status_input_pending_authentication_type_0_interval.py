from enum import StrEnum


class BillingStatusInputPendingAuthenticationType0Interval(StrEnum):
    MONTH = "month"
    YEAR = "year"

    def __str__(self) -> str:
        return str(self.value)
