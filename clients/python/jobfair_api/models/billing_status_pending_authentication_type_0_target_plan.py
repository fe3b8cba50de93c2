from enum import StrEnum


class BillingStatusPendingAuthenticationType0TargetPlan(StrEnum):
    ENTERPRISE = "enterprise"
    PRO = "pro"

    def __str__(self) -> str:
        return str(self.value)
