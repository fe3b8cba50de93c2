from enum import StrEnum


class BillingCheckoutInputPlan(StrEnum):
    ENTERPRISE = "enterprise"
    PRO = "pro"

    def __str__(self) -> str:
        return str(self.value)
