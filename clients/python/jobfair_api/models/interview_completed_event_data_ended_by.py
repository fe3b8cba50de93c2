from enum import StrEnum


class InterviewCompletedEventDataEndedBy(StrEnum):
    RECRUITER = "recruiter"
    SEEKER = "seeker"
    TIME_LIMIT = "time_limit"

    def __str__(self) -> str:
        return str(self.value)
