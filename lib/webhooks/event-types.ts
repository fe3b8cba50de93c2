/**
 * The webhook event types of the service and the `data` shape of each (documented in the README
 * and in the OpenAPI descriptions). A subscription may list only these; anything else → 400.
 */
export const WEBHOOK_EVENT_TYPES = ['match.matched', 'match.accepted', 'interview.completed', 'changelog.api', 'webhook.test'] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

export function isWebhookEventType(s: string): s is WebhookEventType {
  return (WEBHOOK_EVENT_TYPES as readonly string[]).includes(s);
}

/** One line per type: when it is sent and the fields of `data`. */
export const WEBHOOK_EVENT_DOCS: Record<WebhookEventType, { when: string; data: string }> = {
  'match.matched': {
    when: "a match is made: team subscriptions of the job's team (recruiters with a team subscribe as the team), user subscriptions of the seeker",
    data: '{ match_id, role_title, seeker_headline }',
  },
  'match.accepted': { when: 'both sides of a match accepted it in the web application', data: '{ match_id, job_id, role_title, live_event_slug, accepted_at, recruiter_auto_accepted }' },
  'interview.completed': { when: 'the interview of an accepted match has ended', data: '{ match_id, job_id, role_title, live_event_slug, completed_at }' },
  'changelog.api': { when: 'an entry is added to the API changelog (sent to every subscription of this type)', data: '{ entry_id, date, kind, title, description, changelog_url }' },
  'webhook.test': {
    when: 'POST /webhooks/{id}/test (only to that subscription; always delivered to it, whether or not it lists this type)',
    data: '{ webhook_id, message: "This is a test event from Job Fair.", test: true }',
  },
};

/** The fixed `data.message` of `webhook.test`. */
export const WEBHOOK_TEST_MESSAGE = 'This is a test event from Job Fair.';
