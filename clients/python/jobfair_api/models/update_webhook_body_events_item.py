from enum import StrEnum


class UpdateWebhookBodyEventsItem(StrEnum):
    CHANGELOG_API = "changelog.api"
    INTERVIEW_COMPLETED = "interview.completed"
    MATCH_ACCEPTED = "match.accepted"
    MATCH_MATCHED = "match.matched"
    MATCH_NO_SHOW = "match.no_show"
    WEBHOOK_TEST = "webhook.test"

    def __str__(self) -> str:
        return str(self.value)
