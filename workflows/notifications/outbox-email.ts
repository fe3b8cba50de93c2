import { proxyActivities } from '@temporalio/workflow';
import type { createEmailActivities } from '../../activities/notifications/email-activities';
import type { OutboxEmailInput, OutboxEmailResult } from './contract';

const MAX_ATTEMPTS = 5;
const { sendOutboxEmail } = proxyActivities<ReturnType<typeof createEmailActivities>>({
  startToCloseTimeout: '60 seconds',
  retry: {
    initialInterval: '1 second',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: MAX_ATTEMPTS,
  },
});

/**
 * `outbox-email:<outboxId>`: sends one `email_outbox` row written by the API in the same
 * transaction as the change it reports (a sign-up confirmation link, decision 0182): the worker's
 * outbox sender opens a sealed body just before SMTP, marks the row sent, retries a failing SMTP
 * server up to five times and then marks the row failed.
 */
export async function outboxEmailWorkflow(input: OutboxEmailInput): Promise<OutboxEmailResult> {
  return sendOutboxEmail({ outboxId: input.outboxId, maxAttempts: MAX_ATTEMPTS });
}
