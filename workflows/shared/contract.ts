import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * The shared contract of every capability: the search attribute keys operators filter on in the
 * Temporal UI (registered at every dev-server start). Workflows upsert them; clients set them at start.
 */
export const JobfairEntity = defineSearchAttributeKey('JobfairEntity', SearchAttributeType.KEYWORD);
export const JobfairStatus = defineSearchAttributeKey('JobfairStatus', SearchAttributeType.KEYWORD);
export const JobfairEventSlug = defineSearchAttributeKey('JobfairEventSlug', SearchAttributeType.KEYWORD);
export const JobfairUserId = defineSearchAttributeKey('JobfairUserId', SearchAttributeType.KEYWORD);
export const JobfairTeamId = defineSearchAttributeKey('JobfairTeamId', SearchAttributeType.KEYWORD);
export const JobfairWebhookId = defineSearchAttributeKey('JobfairWebhookId', SearchAttributeType.KEYWORD);

export type JobfairEntityName = 'queue_entry' | 'match' | 'live_event' | 'webhook_subscription' | 'webhook_delivery' | 'webhook_dispatcher' | 'changelog_announcement' | 'billing_account';
