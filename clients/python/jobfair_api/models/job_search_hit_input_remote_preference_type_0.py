from enum import StrEnum


class JobSearchHitInputRemotePreferenceType0(StrEnum):
    HYBRID = "hybrid"
    ONSITE = "onsite"
    REMOTE = "remote"

    def __str__(self) -> str:
        return str(self.value)
