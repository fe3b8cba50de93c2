from enum import StrEnum


class BillingStatusPendingAuthenticationType0Interval(StrEnum):
    MONTH = "month"
    YEAR = "year"

    def __str__(self) -> str:
        return str(self.value)
