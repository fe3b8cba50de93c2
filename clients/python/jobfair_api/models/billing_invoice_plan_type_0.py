from enum import StrEnum


class BillingInvoicePlanType0(StrEnum):
    ENTERPRISE = "enterprise"
    FREE = "free"
    PRO = "pro"

    def __str__(self) -> str:
        return str(self.value)
