from enum import StrEnum


class BillingStatusInputPlan(StrEnum):
    ENTERPRISE = "enterprise"
    FREE = "free"
    PRO = "pro"

    def __str__(self) -> str:
        return str(self.value)
