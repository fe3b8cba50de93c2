import { proxyActivities } from '@temporalio/workflow';

/**
 * The bench's ceiling for a workflow per delivery: one workflow, one activity that sends the same
 * signed POST our deliveries send, nothing else (no records, no search attributes, no signals).
 * Only bench/webhooks.ts registers it, on its own task queue.
 */
export interface BarePostActivities {
  barePost(input: { subscriptionIndex: number; eventId: string }): Promise<void>;
}

// Retried like any activity: on a loaded machine an attempt can time out (the ceiling then pays for it, as ours would).
const { barePost } = proxyActivities<BarePostActivities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5 },
});
export async function bareWebhookPostWorkflow(input: { subscriptionIndex: number; eventId: string }): Promise<void> {
  await barePost(input);
}
