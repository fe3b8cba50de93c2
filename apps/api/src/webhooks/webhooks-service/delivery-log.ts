import { WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError } from '@temporalio/client';
import type { WebhookAttemptRow, WebhookOwner, WebhookSubscriptionRow } from '#db/webhooks/webhooks-repository';
import { ConflictError, NotFoundError } from '#lib/errors';
import { operationHex, type OperationKey } from '#lib/operation-ids';
import { updateRefusal } from '#lib/update-refusal';
import {
  DELIVERY_NOT_DEAD_LETTER,
  WEBHOOK_DELIVERY_WORKFLOW,
  replayDeadLetterUpdate,
  webhookSubscriptionLabel,
  type WebhookDeliveryState,
  type WebhookDeliveryWorkflow,
} from '#workflows/webhooks/contract';
import { deliveryInput, deliveryStartOptions } from '#workflows/webhooks/client';
import type { WebhooksServiceDeps } from './deps';
import { loadSubscription, requireActive } from './subscription-checks';

/** At most this many dead letters are replayed by one `replay since` call (the answer says when more remain). */
export const MAX_REPLAY_BATCH = 500;

/**
 * Decision 0196: a dead letter that still waits (open) gets the `replay` update — it marks itself
 * `dead_letter_replayed` and continues as the new run; one that has closed (older runs, or past
 * the hold) gets a new run started with the update (update-with-start, USE_EXISTING). An open run
 * that is not a dead letter refuses: WorkflowExecutionAlreadyStartedError, as before.
 */
async function startReplay(
  deps: WebhooksServiceDeps,
  row: WebhookSubscriptionRow,
  dead: { eventId: string; eventType: string; previousRun: number },
  replayOp: string | null,
  replayedBy: string,
) {
  const input = deliveryInput(deps.config, {
    webhookId: row.id,
    eventId: dead.eventId,
    eventType: dead.eventType,
    run: dead.previousRun + 1,
    source: 'replay',
    ownerTeamId: row.owner_team_id,
    ownerUserId: row.owner_user_id,
    replayOp,
    subscriptionLabel: webhookSubscriptionLabel(row),
  });
  try {
    return await deps.temporal.workflow.executeUpdateWithStart(replayDeadLetterUpdate, {
      args: [{ run: input.run, replayedBy, replayOp }],
      startWorkflowOperation: new WithStartWorkflowOperation<WebhookDeliveryWorkflow>(WEBHOOK_DELIVERY_WORKFLOW, {
        ...deliveryStartOptions(deps.config, input, 'replay'),
        workflowIdConflictPolicy: 'USE_EXISTING',
      }),
    });
  } catch (err) {
    if (updateRefusal(err, [DELIVERY_NOT_DEAD_LETTER]))
      throw new WorkflowExecutionAlreadyStartedError(
        'a delivery run is open',
        deliveryStartOptions(deps.config, input, 'replay').workflowId,
        WEBHOOK_DELIVERY_WORKFLOW,
      );
    throw err;
  }
}

/** The delivery log of a subscription and the redelivery of its dead letters. */
export function deliveryLog(deps: WebhooksServiceDeps) {
  const repo = deps.repos.webhooks;
  return {
    /** The delivery log: the 50 most recent attempts (and not-sent outcomes), newest first. */
    async listDeliveries(
      owner: WebhookOwner | null,
      id: string,
    ): Promise<Array<WebhookAttemptRow & { state: WebhookDeliveryState }>> {
      const row = await loadSubscription(deps, owner, id);
      return repo.listRecentAttempts(row.id, 50);
    },

    /** Redelivers one dead letter (named by any `dlv_` of its log, or by its `evt_` id) as a new run. */
    async replayOne(
      owner: WebhookOwner | null,
      id: string,
      deliveryRef: string,
      op: OperationKey | null = null,
      replayedBy = owner ? 'api' : 'operator',
    ): Promise<{ eventId: string; run: number }> {
      const row = await loadSubscription(deps, owner, id);
      // Keyed (decision 0197): the run a replay creates carries a tag derived from token + key, so a
      // retry after a crash finds it and answers with it instead of 409.
      const replayOp = op ? operationHex(op, `replay:${row.id}:${deliveryRef}`) : null;
      if (replayOp) {
        const [done] = await repo.deliveriesByReplayOp(row.id, replayOp);
        if (done) return { eventId: done.event_id, run: done.run };
      }
      let eventId = deliveryRef;
      if (deliveryRef.startsWith('dlv_')) {
        const attempt = await repo.findAttempt(row.id, deliveryRef);
        if (!attempt) throw new NotFoundError('delivery', deliveryRef);
        eventId = attempt.event_id;
      }
      const latest = await repo.latestRun(row.id, eventId);
      if (!latest) throw new NotFoundError('delivery', deliveryRef);
      if (latest.state !== 'dead_letter') {
        throw new ConflictError(
          'DELIVERY_NOT_DEAD_LETTER',
          `delivery of ${eventId} to webhook ${row.id} is ${latest.state}; only dead letters can be replayed`,
          { state: latest.state, event_id: eventId },
        );
      }
      requireActive(row);
      try {
        const dead = { eventId, eventType: latest.event_type, previousRun: latest.run };
        return await startReplay(deps, row, dead, replayOp, replayedBy);
      } catch (err) {
        if (err instanceof WorkflowExecutionAlreadyStartedError)
          throw new ConflictError(
            'DELIVERY_IN_PROGRESS',
            `a delivery of ${eventId} to webhook ${row.id} is already running`,
            { event_id: eventId },
          );
        throw err;
      }
    },

    /** Redelivers every dead letter of the subscription that ended at or after `since` (oldest first, at most MAX_REPLAY_BATCH). */
    async replaySince(
      owner: WebhookOwner | null,
      id: string,
      since: Date,
      op: OperationKey | null = null,
      replayedBy = owner ? 'api' : 'operator',
    ): Promise<{ replayed: Array<{ eventId: string; run: number }>; skipped: string[]; more: boolean }> {
      const row = await loadSubscription(deps, owner, id);
      // Keyed (decision 0197): a retry after a crash answers with the runs the first call created, plus any it had not reached.
      const replayOp = op ? operationHex(op, `replay-since:${row.id}:${since.toISOString()}`) : null;
      const replayed: Array<{ eventId: string; run: number }> = replayOp
        ? (await repo.deliveriesByReplayOp(row.id, replayOp)).map((d) => ({ eventId: d.event_id, run: d.run }))
        : [];
      if (replayed.length === 0) requireActive(row);
      const dead = await repo.listDeadLettersSince(row.id, since, MAX_REPLAY_BATCH + 1);
      const skipped: string[] = [];
      for (const d of dead.slice(0, MAX_REPLAY_BATCH)) {
        try {
          const letter = { eventId: d.event_id, eventType: d.event_type, previousRun: d.run };
          replayed.push(await startReplay(deps, row, letter, replayOp, replayedBy));
        } catch (err) {
          if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
          skipped.push(d.event_id);
        }
      }
      return { replayed, skipped, more: dead.length > MAX_REPLAY_BATCH };
    },
  };
}
