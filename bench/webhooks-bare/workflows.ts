import { proxyActivities } from '@temporalio/workflow';

/**
 * The bench's ceiling for a workflow per delivery: one workflow, one activity that sends the same
 * signed POST our deliveries send, nothing else (no records, no search attributes, no signals).
 * Only bench/webhooks.ts registers it, on its own task queue.
 */
export interface BarePostActivities {
  barePost(input: { subscriptionIndex: number; eventId: string }): Promise<void>;
}

const { barePost } = proxyActivities<BarePostActivities>({ startToCloseTimeout: '30 seconds', retry: { maximumAttempts: 1 } });
export async function bareWebhookPostWorkflow(input: { subscriptionIndex: number; eventId: string }): Promise<void> {
  await barePost(input);
}

