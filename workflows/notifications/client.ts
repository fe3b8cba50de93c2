import type { Client } from '@temporalio/client';
import type { Config } from '../../lib/config';
import { OUTBOX_EMAIL_WORKFLOW, outboxEmailWorkflowId, type OutboxEmailWorkflow } from './contract';

/**
 * Starts the sending of one outbox row (after the transaction that wrote it committed). A repeated
 * start for the same row is a no-op (USE_EXISTING on `outbox-email:<outboxId>`).
 */
export async function startOutboxEmail(
  client: Client,
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>,
  outboxId: string,
): Promise<void> {
  await client.workflow.start<OutboxEmailWorkflow>(OUTBOX_EMAIL_WORKFLOW, {
    workflowId: outboxEmailWorkflowId(outboxId),
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    args: [{ outboxId }],
    workflowIdConflictPolicy: 'USE_EXISTING',
    staticSummary: 'Sends one e-mail of the outbox',
  });
}
