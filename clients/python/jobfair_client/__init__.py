"""Job Fair API v1 for Python: the generated client (``jobfair_api``) plus the conventions.

``create_client`` gives the generated package's client with bearer auth, Idempotency-Keys kept
across retries, Retry-After on 429/503; ``must`` unwraps an answer or raises JobfairApiError;
``paginate`` walks ``{ data, next_cursor, has_more }``; ``verify_webhook`` checks a delivery's
signature (both schemes) and ``parse_event`` gives the payload model of its type.
"""

from jobfair_api.webhook_events import (
    WEBHOOK_EVENT_MODELS,
    ChangelogApiEvent,
    InterviewCompletedEvent,
    MatchAcceptedEvent,
    MatchMatchedEvent,
    MatchNoShowEvent,
    WebhookTestEvent,
)

from ._transport import RateLimitInfo
from .client import JobfairApiError, apaginate, create_client, must, paginate
from .webhooks import (
    VerifiedWebhook,
    WebhookVerificationError,
    parse_event,
    verify_webhook,
)

__all__ = [
    "WEBHOOK_EVENT_MODELS",
    "ChangelogApiEvent",
    "InterviewCompletedEvent",
    "JobfairApiError",
    "MatchAcceptedEvent",
    "MatchMatchedEvent",
    "MatchNoShowEvent",
    "RateLimitInfo",
    "VerifiedWebhook",
    "WebhookTestEvent",
    "WebhookVerificationError",
    "apaginate",
    "create_client",
    "must",
    "paginate",
    "parse_event",
    "verify_webhook",
]
