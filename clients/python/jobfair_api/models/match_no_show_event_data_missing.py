from enum import StrEnum


class MatchNoShowEventDataMissing(StrEnum):
    BOTH = "both"
    RECRUITER = "recruiter"
    SEEKER = "seeker"

    def __str__(self) -> str:
        return str(self.value)
