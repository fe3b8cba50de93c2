import { WithStartWorkflowOperation } from '@temporalio/client';
import type { WebhookSubscriptionRow } from '#db/webhooks/webhooks-repository';
import { NotFoundError } from '#lib/errors';
import { updateRefusal } from '#lib/update-refusal';
import {
  WEBHOOK_DELETED,
  WEBHOOK_SUBSCRIPTION_WORKFLOW,
  webhookSubscriptionStartMetadata,
  webhookSubscriptionWorkflowId,
  type resumeSubscriptionUpdate,
  type SubscriptionUpdateResult,
  type WebhookSubscriptionInput,
  type WebhookSubscriptionWorkflow,
} from '#workflows/webhooks/contract';
import {
  JobfairEntity,
  JobfairStatus,
  JobfairTeamId,
  JobfairUserId,
  JobfairWebhookId,
} from '#workflows/shared/contract';
import type { WebhooksServiceDeps } from './deps';

// The subscription actor (`webhook-subscription:<whk>`) as the API starts and messages it: its
// lifecycle (status, failure counter) changes only through it.

const actorInput = (deps: WebhooksServiceDeps, row: WebhookSubscriptionRow): WebhookSubscriptionInput => ({
  webhookId: row.id,
  ownerUserId: row.owner_user_id,
  ownerTeamId: row.owner_team_id,
  autoPauseFailures: deps.config.WEBHOOK_AUTO_PAUSE_FAILURES,
  status: row.status === 'deleted' ? 'disabled' : row.status,
  consecutiveFailures: row.consecutive_failures,
  pausedAtMs: row.paused_at?.getTime() ?? null,
});

/** The owner's name (team or user) for the actor's start summary in the Temporal UI. */
const ownerName = async (deps: WebhooksServiceDeps, row: WebhookSubscriptionRow): Promise<string | null> =>
  row.owner_team_id
    ? ((await deps.repos.accounts.findTeamById(row.owner_team_id))?.name ?? null)
    : row.owner_user_id
      ? ((await deps.repos.accounts.findUserById(row.owner_user_id))?.display_name ?? null)
      : null;

export const actorStartOptions = async (deps: WebhooksServiceDeps, row: WebhookSubscriptionRow) => ({
  workflowId: webhookSubscriptionWorkflowId(row.id),
  taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
  ...webhookSubscriptionStartMetadata(row, await ownerName(deps, row)),
  typedSearchAttributes: [
    { key: JobfairEntity, value: 'webhook_subscription' },
    { key: JobfairStatus, value: row.status },
    { key: JobfairWebhookId, value: row.id },
    ...(row.owner_team_id ? [{ key: JobfairTeamId, value: row.owner_team_id }] : []),
    ...(row.owner_user_id ? [{ key: JobfairUserId, value: row.owner_user_id }] : []),
  ],
  args: [actorInput(deps, row)] as [WebhookSubscriptionInput],
});

/** Starts the actor from its row; USE_EXISTING keeps a running one. */
export async function startActor(
  deps: WebhooksServiceDeps,
  row: WebhookSubscriptionRow,
  workflowIdConflictPolicy: 'USE_EXISTING' | 'FAIL' = 'USE_EXISTING',
): Promise<void> {
  await deps.temporal.workflow.start<WebhookSubscriptionWorkflow>(WEBHOOK_SUBSCRIPTION_WORKFLOW, {
    ...(await actorStartOptions(deps, row)),
    workflowIdConflictPolicy,
  });
}

/** Update-with-start on the actor: works even if its run is gone (it is recreated from the row). */
export async function messageActor(
  deps: WebhooksServiceDeps,
  row: WebhookSubscriptionRow,
  update: typeof resumeSubscriptionUpdate,
): Promise<SubscriptionUpdateResult> {
  try {
    return await deps.temporal.workflow.executeUpdateWithStart(update, {
      startWorkflowOperation: new WithStartWorkflowOperation<WebhookSubscriptionWorkflow>(
        WEBHOOK_SUBSCRIPTION_WORKFLOW,
        { ...(await actorStartOptions(deps, row)), workflowIdConflictPolicy: 'USE_EXISTING' },
      ),
    });
  } catch (err) {
    if (updateRefusal(err, [WEBHOOK_DELETED])) throw new NotFoundError('webhook', row.id);
    throw err;
  }
}
