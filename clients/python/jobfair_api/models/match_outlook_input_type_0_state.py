from enum import StrEnum


class MatchOutlookInputType0State(StrEnum):
    EVENT_PAUSED = "event_paused"
    MATCHABLE = "matchable"
    NO_ELIGIBLE_JOB = "no_eligible_job"
    UNKNOWN = "unknown"

    def __str__(self) -> str:
        return str(self.value)
