from enum import StrEnum


class JobComparisonInputProvider(StrEnum):
    BUILTIN = "builtin"
    OPENAI_COMPATIBLE = "openai_compatible"

    def __str__(self) -> str:
        return str(self.value)
