from enum import StrEnum


class BillingStatusInputPendingAuthenticationType0TargetPlan(StrEnum):
    ENTERPRISE = "enterprise"
    PRO = "pro"

    def __str__(self) -> str:
        return str(self.value)
