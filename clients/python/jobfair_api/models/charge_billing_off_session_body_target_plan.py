from enum import StrEnum


class ChargeBillingOffSessionBodyTargetPlan(StrEnum):
    ENTERPRISE = "enterprise"
    PRO = "pro"

    def __str__(self) -> str:
        return str(self.value)
