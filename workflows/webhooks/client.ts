import { WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import { JobfairEntity, JobfairStatus, JobfairTeamId, JobfairUserId, JobfairWebhookId } from '../shared/contract';
import {
  webhookDeliveryWorkflowId,
  webhookDispatcherWorkflowId,
  WEBHOOK_DELIVERY_WORKFLOW,
  WEBHOOK_DISPATCHER_WORKFLOW,
  type WebhookDeliveryInput,
  type WebhookDeliveryWorkflow,
  type WebhookDispatcherInput,
  type WebhookDispatcherWorkflow,
} from './contract';
import type { Config } from '../../lib/config';

export type DeliveryStartMode =
  /** An emitted event: a running or earlier run with this id means it is already delivered or under way (duplicate emits collapse). */
  | 'event'
  /** A replay: a new run of a closed delivery; refused while a run is still open. */
  | 'replay';

export function deliveryInput(
  config: Pick<Config, 'WEBHOOK_RETRY_SCHEDULE_MS' | 'WEBHOOK_TIMEOUT_MS'>,
  d: Omit<WebhookDeliveryInput, 'retryScheduleMs' | 'attemptTimeoutMs'>,
): WebhookDeliveryInput {
  return { ...d, retryScheduleMs: [...config.WEBHOOK_RETRY_SCHEDULE_MS], attemptTimeoutMs: config.WEBHOOK_TIMEOUT_MS };
}

export function deliveryStartOptions(
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>,
  input: WebhookDeliveryInput,
  mode: DeliveryStartMode,
) {
  return {
    workflowId: webhookDeliveryWorkflowId(input.webhookId, input.eventId),
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    args: [input] as [WebhookDeliveryInput],
    workflowIdConflictPolicy: mode === 'event' ? ('USE_EXISTING' as const) : ('FAIL' as const),
    workflowIdReusePolicy: mode === 'event' ? ('REJECT_DUPLICATE' as const) : ('ALLOW_DUPLICATE' as const),
    staticSummary: `${input.source === 'replay' ? `Replay #${input.run - 1} of ${input.eventType}` : input.resume ? `Retries of ${input.eventType}` : input.eventType} ${input.eventId} → webhook ${input.subscriptionLabel ? `${input.subscriptionLabel} ` : ''}${input.webhookId}`,
    typedSearchAttributes: [
      { key: JobfairEntity, value: 'webhook_delivery' },
      { key: JobfairStatus, value: 'pending' },
      { key: JobfairWebhookId, value: input.webhookId },
      ...(input.ownerTeamId ? [{ key: JobfairTeamId, value: input.ownerTeamId }] : []),
      ...(input.ownerUserId ? [{ key: JobfairUserId, value: input.ownerUserId }] : []),
    ],
  };
}

/**
 * Starts `webhook-delivery:<whk>:<evt>`. For an event, a run that is open (USE_EXISTING) or closed
 * (REJECT_DUPLICATE, false is returned) means this is a duplicate emission and nothing new starts. A replay that finds an open run throws
 * WorkflowExecutionAlreadyStartedError.
 */
export async function startWebhookDelivery(
  client: Client,
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>,
  input: WebhookDeliveryInput,
  mode: DeliveryStartMode,
): Promise<boolean> {
  try {
    await client.workflow.start<WebhookDeliveryWorkflow>(
      WEBHOOK_DELIVERY_WORKFLOW,
      deliveryStartOptions(config, input, mode),
    );
    return true;
  } catch (err) {
    if (mode === 'event' && err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
}

/** Start options of `webhook-dispatcher:<task queue>`: a running dispatcher is kept (USE_EXISTING); a closed one is started again. */
export function dispatcherStartOptions(config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>) {
  return {
    workflowId: webhookDispatcherWorkflowId(config.TEMPORAL_TASK_QUEUE),
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    args: [{ taskQueue: config.TEMPORAL_TASK_QUEUE }] as [WebhookDispatcherInput],
    workflowIdConflictPolicy: 'USE_EXISTING' as const,
    workflowIdReusePolicy: 'ALLOW_DUPLICATE' as const,
    staticSummary: `First attempts of webhook deliveries (task queue ${config.TEMPORAL_TASK_QUEUE})`,
    typedSearchAttributes: [
      { key: JobfairEntity, value: 'webhook_dispatcher' },
      { key: JobfairStatus, value: 'running' },
    ],
  };
}

/** Makes sure the dispatcher runs (idempotent). */
export async function ensureWebhookDispatcher(
  client: Client,
  config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>,
): Promise<void> {
  await client.workflow.start<WebhookDispatcherWorkflow>(WEBHOOK_DISPATCHER_WORKFLOW, dispatcherStartOptions(config));
}
