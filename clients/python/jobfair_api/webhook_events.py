"""Webhook event type → payload model, from the OpenAPI document's `webhooks` section.

Written by clients/python/scripts/generate.ts beside the generated package. Do not edit.
"""

from .models.changelog_api_event import ChangelogApiEvent
from .models.interview_completed_event import InterviewCompletedEvent
from .models.match_accepted_event import MatchAcceptedEvent
from .models.match_matched_event import MatchMatchedEvent
from .models.match_no_show_event import MatchNoShowEvent
from .models.webhook_test_event import WebhookTestEvent

WEBHOOK_EVENT_MODELS = {
    "match.matched": MatchMatchedEvent,
    "match.accepted": MatchAcceptedEvent,
    "interview.completed": InterviewCompletedEvent,
    "match.no_show": MatchNoShowEvent,
    "changelog.api": ChangelogApiEvent,
    "webhook.test": WebhookTestEvent,
}

__all__ = (
    "WEBHOOK_EVENT_MODELS",
    "ChangelogApiEvent",
    "InterviewCompletedEvent",
    "MatchAcceptedEvent",
    "MatchMatchedEvent",
    "MatchNoShowEvent",
    "WebhookTestEvent",
)
