from enum import StrEnum


class MatchNoShowMissingType0(StrEnum):
    BOTH = "both"
    RECRUITER = "recruiter"
    SEEKER = "seeker"

    def __str__(self) -> str:
        return str(self.value)
