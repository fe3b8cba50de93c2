from enum import StrEnum


class ProfileRemotePreferenceType0(StrEnum):
    FULLY_REMOTE = "fully_remote"
    HYBRID = "hybrid"
    ONSITE = "onsite"

    def __str__(self) -> str:
        return str(self.value)
