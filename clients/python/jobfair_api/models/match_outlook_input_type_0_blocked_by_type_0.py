from enum import StrEnum


class MatchOutlookInputType0BlockedByType0(StrEnum):
    AHEAD_IN_LINE = "ahead_in_line"
    BELOW_FLOOR = "below_floor"
    EVENT_NOT_LIVE = "event_not_live"
    NO_ELIGIBLE_JOB = "no_eligible_job"
    NO_FREE_SLOT = "no_free_slot"
    OFFER_IN_PROGRESS = "offer_in_progress"
    RECRUITERS_BUSY = "recruiters_busy"
    RECRUITERS_UNAVAILABLE = "recruiters_unavailable"

    def __str__(self) -> str:
        return str(self.value)
