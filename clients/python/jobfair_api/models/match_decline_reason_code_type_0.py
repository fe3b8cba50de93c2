from enum import StrEnum


class MatchDeclineReasonCodeType0(StrEnum):
    EXPERIENCE = "experience"
    LEFT_QUEUE = "left_queue"
    LOCATION = "location"
    NOT_INTERESTED = "not_interested"
    OTHER = "other"
    SALARY = "salary"
    SKILLS = "skills"
    TIMING = "timing"

    def __str__(self) -> str:
        return str(self.value)
