from enum import StrEnum


class ListBillingPlansResponse200IntervalsItem(StrEnum):
    MONTH = "month"
    YEAR = "year"

    def __str__(self) -> str:
        return str(self.value)
