from enum import StrEnum


class MatchInputNoShowMissingType0(StrEnum):
    BOTH = "both"
    RECRUITER = "recruiter"
    SEEKER = "seeker"

    def __str__(self) -> str:
        return str(self.value)
