from enum import StrEnum


class BillingCheckoutPlan(StrEnum):
    ENTERPRISE = "enterprise"
    PRO = "pro"

    def __str__(self) -> str:
        return str(self.value)
