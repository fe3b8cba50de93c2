from enum import StrEnum


class MatchInputDeclinedByRoleType0(StrEnum):
    RECRUITER = "recruiter"
    SEEKER = "seeker"

    def __str__(self) -> str:
        return str(self.value)
