import { randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { WithStartWorkflowOperation, WorkflowExecutionAlreadyStartedError, type Client } from '@temporalio/client';
import {
  type WebhookAttemptRow,
  type WebhookOwner,
  type WebhookSubscriptionRow,
} from '#db/webhooks/webhooks-repository';
import { ConflictError, NotFoundError, ValidationError } from '#lib/errors';
import { operationHex, type OperationKey } from '#lib/operation-ids';
import type { Config } from '#lib/config';
import { updateRefusal } from '#lib/update-refusal';
import { checkTargetUrl } from '#domain/webhooks/address-policy';
import { checkWebhookEventData } from '#domain/webhooks/event-catalogue';
import { deriveWebhookSecret, hashWebhookSecret, newSecretSalt } from '#domain/webhooks/secrets';
import {
  WEBHOOK_DELETED,
  WEBHOOK_TEST_MESSAGE,
  isWebhookEventType,
  webhookSubscriptionStartMetadata,
  webhookSubscriptionWorkflowId,
  deleteSubscriptionUpdate,
  disableSubscriptionUpdate,
  resumeSubscriptionUpdate,
  WEBHOOK_SUBSCRIPTION_WORKFLOW,
  firstOutcomeUpdate,
  replayDeadLetterUpdate,
  webhookSubscriptionLabel,
  DELIVERY_NOT_DEAD_LETTER,
  WEBHOOK_DELIVERY_WORKFLOW,
  type FirstOutcomeUpdateResult,
  type SubscriptionUpdateResult,
  type WebhookDeliveryState,
  type WebhookSubscriptionInput,
  type WebhookSubscriptionWorkflow,
  type WebhookDeliveryWorkflow,
} from '#workflows/webhooks/contract';
import { deliveryInput, deliveryStartOptions, startWebhookDelivery } from '#workflows/webhooks/client';
import type { Paginator, Page } from '../plugins/pagination';
import {
  JobfairEntity,
  JobfairStatus,
  JobfairTeamId,
  JobfairUserId,
  JobfairWebhookId,
} from '#workflows/shared/contract';
import { type UserRole } from '#db/accounts/accounts-repository';
import type { ServiceDeps } from '../plugins/service-deps';

export type { WebhookOwner };

/** Recruiters with a team own subscriptions as their team; everyone else as themselves. */
export function webhookOwnerOf(auth: { userId: string; role: UserRole; teamId: string | null }): WebhookOwner {
  return auth.role === 'recruiter' && auth.teamId
    ? { kind: 'team', teamId: auth.teamId }
    : { kind: 'user', userId: auth.userId };
}

export interface CreateWebhookInput {
  target_url: string;
  events: string[];
  description?: string | null;
}
export interface UpdateWebhookInput {
  target_url?: string;
  events?: string[];
  description?: string | null;
  status?: 'active' | 'disabled';
}

/** At most this many dead letters are replayed by one `replay since` call (the answer says when more remain). */
export const MAX_REPLAY_BATCH = 500;

const newWebhookId = () => `whk_${randomBytes(12).toString('hex')}`;
const newEventId = () => `evt_${randomBytes(12).toString('hex')}`;

/**
 * Use-cases of webhook subscriptions, shared by the REST routes, the web page, the agent tool and
 * the operator CLI (`owner: null` = operator, any subscription). Settings are written here; the
 * lifecycle (status, failure counter) only by messaging the subscription actor.
 */
export function createWebhooksService(
  deps: Pick<ServiceDeps, 'knex' | 'repos' | 'temporal' | 'config' | 'appSecret' | 'paginator'>,
) {
  const repo = deps.repos.webhooks;
  const policy = { allowLoopback: deps.config.WEBHOOK_ALLOW_LOOPBACK };

  const validateTarget = (url: string) => {
    const check = checkTargetUrl(url, policy);
    if (!check.ok) throw new ValidationError(check.message, [{ path: 'body.target_url', message: check.message }]);
    return check.url.toString();
  };
  const validateEvents = (events: string[]) => {
    const unknown = events.filter((e) => !isWebhookEventType(e));
    if (unknown.length > 0) {
      throw new ValidationError(
        `Unknown event type ${unknown.map((u) => `'${u}'`).join(', ')}`,
        unknown.map((u) => ({ path: 'body.events', message: `unknown event type '${u}'` })),
      );
    }
    return [...new Set(events)];
  };
  const load = async (owner: WebhookOwner | null, id: string): Promise<WebhookSubscriptionRow> => {
    const row = owner ? await repo.findSubscriptionForOwner(id, owner) : await repo.findSubscriptionById(id);
    if (!row || row.status === 'deleted') throw new NotFoundError('webhook', id);
    return row;
  };

  const actorInput = (row: WebhookSubscriptionRow): WebhookSubscriptionInput => ({
    webhookId: row.id,
    ownerUserId: row.owner_user_id,
    ownerTeamId: row.owner_team_id,
    autoPauseFailures: deps.config.WEBHOOK_AUTO_PAUSE_FAILURES,
    status: row.status === 'deleted' ? 'disabled' : row.status,
    consecutiveFailures: row.consecutive_failures,
    pausedAtMs: row.paused_at?.getTime() ?? null,
  });
  /** The owner's name (team or user) for the actor's start summary in the Temporal UI. */
  const ownerName = async (row: WebhookSubscriptionRow): Promise<string | null> =>
    row.owner_team_id
      ? ((await deps.repos.accounts.findTeamById(row.owner_team_id))?.name ?? null)
      : row.owner_user_id
        ? ((await deps.repos.accounts.findUserById(row.owner_user_id))?.display_name ?? null)
        : null;
  const actorStartOptions = async (row: WebhookSubscriptionRow) => ({
    workflowId: webhookSubscriptionWorkflowId(row.id),
    taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
    ...webhookSubscriptionStartMetadata(row, await ownerName(row)),
    typedSearchAttributes: [
      { key: JobfairEntity, value: 'webhook_subscription' },
      { key: JobfairStatus, value: row.status },
      { key: JobfairWebhookId, value: row.id },
      ...(row.owner_team_id ? [{ key: JobfairTeamId, value: row.owner_team_id }] : []),
      ...(row.owner_user_id ? [{ key: JobfairUserId, value: row.owner_user_id }] : []),
    ],
    args: [actorInput(row)] as [WebhookSubscriptionInput],
  });
  /** Update-with-start on the actor: works even if its run is gone (it is recreated from the row). */
  const messageActor = async (
    row: WebhookSubscriptionRow,
    update: typeof resumeSubscriptionUpdate,
  ): Promise<SubscriptionUpdateResult> => {
    try {
      return await deps.temporal.workflow.executeUpdateWithStart(update, {
        startWorkflowOperation: new WithStartWorkflowOperation<WebhookSubscriptionWorkflow>(
          WEBHOOK_SUBSCRIPTION_WORKFLOW,
          { ...(await actorStartOptions(row)), workflowIdConflictPolicy: 'USE_EXISTING' },
        ),
      });
    } catch (err) {
      if (updateRefusal(err, [WEBHOOK_DELETED])) throw new NotFoundError('webhook', row.id);
      throw err;
    }
  };

  /**
   * Decision 0196: a dead letter that still waits (open) gets the `replay` update — it marks itself
   * `dead_letter_replayed` and continues as the new run; one that has closed (older runs, or past
   * the hold) gets a new run started with the update (update-with-start, USE_EXISTING). An open run
   * that is not a dead letter refuses: WorkflowExecutionAlreadyStartedError, as before.
   */
  const startReplay = async (
    row: WebhookSubscriptionRow,
    eventId: string,
    eventType: string,
    previousRun: number,
    replayOp: string | null,
    replayedBy: string,
  ) => {
    const input = deliveryInput(deps.config, {
      webhookId: row.id,
      eventId,
      eventType,
      run: previousRun + 1,
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
  };
  const requireActive = (row: WebhookSubscriptionRow) => {
    if (row.status !== 'active') {
      throw new ConflictError(
        'WEBHOOK_NOT_ACTIVE',
        `webhook ${row.id} is ${row.status}; re-enable it (PATCH status=active) before replaying`,
        { status: row.status },
      );
    }
  };

  return {
    /** Creates the subscription and its actor; the plain secret is returned here and never stored. */
    async create(
      owner: WebhookOwner,
      createdByUserId: string | null,
      input: CreateWebhookInput,
      op: OperationKey | null = null,
    ): Promise<{ row: WebhookSubscriptionRow; secret: string }> {
      const target = validateTarget(input.target_url);
      const events = validateEvents(input.events);
      // With an Idempotency-Key the id and the salt derive from it: a retry after a crash re-derives
      // the same subscription and secret instead of creating a second one (decision 0160).
      const id = op ? `whk_${operationHex(op, 'webhook')}` : newWebhookId();
      const salt = op ? operationHex(op, 'webhook-secret', 16) : newSecretSalt();
      const secret = deriveWebhookSecret(deps.appSecret, id, salt);
      if (op) {
        const done = await repo.findSubscriptionForOwner(id, owner);
        if (done) {
          // The actor may be missing if the crash came between commit and answer: start it if so.
          await deps.temporal.workflow.start<WebhookSubscriptionWorkflow>(WEBHOOK_SUBSCRIPTION_WORKFLOW, {
            ...(await actorStartOptions(done)),
            workflowIdConflictPolicy: 'USE_EXISTING',
          });
          return {
            row: done,
            secret: done.secret_salt === salt ? secret : deriveWebhookSecret(deps.appSecret, id, done.secret_salt),
          };
        }
      }
      // The row and the actor appear together: if Temporal refuses the start, the insert is rolled back.
      const row = await deps.knex.transaction(async (trx) => {
        const inserted = await repo.insertSubscription(
          {
            id,
            owner_team_id: owner.kind === 'team' ? owner.teamId : null,
            owner_user_id: owner.kind === 'user' ? owner.userId : null,
            created_by_user_id: createdByUserId,
            target_url: target,
            events,
            description: input.description ?? null,
            secret_hash: hashWebhookSecret(secret),
            secret_salt: salt,
          },
          trx,
        );
        // A derived id may meet the actor of a run whose insert was rolled back (crash before commit).
        await deps.temporal.workflow.start<WebhookSubscriptionWorkflow>(WEBHOOK_SUBSCRIPTION_WORKFLOW, {
          ...(await actorStartOptions(inserted)),
          workflowIdConflictPolicy: op ? 'USE_EXISTING' : 'FAIL',
        });
        return inserted;
      });
      return { row, secret };
    },

    async list(owner: WebhookOwner, q: { limit: number; cursor?: string }): Promise<Page<WebhookSubscriptionRow>> {
      if (!deps.paginator) throw new Error('webhooks service built without a paginator');
      return deps.paginator.page<WebhookSubscriptionRow>(repo.listForOwnerQuery(owner), {
        limit: q.limit,
        cursor: q.cursor,
        filter: { webhooks: owner },
      });
    },

    get: load,

    /** Settings change directly; `status` goes through the actor (resume resets the failure counter). */
    async update(owner: WebhookOwner, id: string, patch: UpdateWebhookInput): Promise<WebhookSubscriptionRow> {
      const row = await load(owner, id);
      const settings: { target_url?: string; events?: string[]; description?: string | null } = {};
      if (patch.target_url !== undefined) settings.target_url = validateTarget(patch.target_url);
      if (patch.events !== undefined) settings.events = validateEvents(patch.events);
      if (patch.description !== undefined) settings.description = patch.description;
      await repo.updateSettings(row.id, settings);
      if (patch.status === 'active') await messageActor(row, resumeSubscriptionUpdate);
      if (patch.status === 'disabled') await messageActor(row, disableSubscriptionUpdate);
      return load(owner, id);
    },

    /** Stops future deliveries; waiting retries end as cancelled (recorded in the delivery log). */
    async remove(owner: WebhookOwner, id: string): Promise<{ cancelledDeliveries: number }> {
      const row = await load(owner, id);
      const r = await messageActor(row, deleteSubscriptionUpdate);
      return { cancelledDeliveries: r.cancelledDeliveries };
    },

    /** New secret (returned once); the previous one keeps signing (a second v1=) for WEBHOOK_SECRET_OVERLAP_MS. */
    async rotateSecret(
      owner: WebhookOwner,
      id: string,
      op: OperationKey | null = null,
    ): Promise<{ row: WebhookSubscriptionRow; secret: string; previousSecretExpiresAt: Date }> {
      const row = await load(owner, id);
      // Keyed: the new salt derives from the key, so a retry after a crash sees its rotation already
      // applied and answers with it, instead of rotating twice and retiring the caller's current secret.
      const salt = op ? operationHex(op, `rotate:${row.id}`, 16) : newSecretSalt();
      const secret = deriveWebhookSecret(deps.appSecret, row.id, salt);
      if (row.secret_salt === salt && row.previous_secret_expires_at)
        return { row, secret, previousSecretExpiresAt: row.previous_secret_expires_at };
      const previousSecretExpiresAt = new Date(Date.now() + deps.config.WEBHOOK_SECRET_OVERLAP_MS);
      await repo.rotateSecret(row.id, {
        secret_hash: hashWebhookSecret(secret),
        secret_salt: salt,
        previous_secret_salt: row.secret_salt,
        previous_secret_expires_at: previousSecretExpiresAt,
      });
      return { row: await load(owner, id), secret, previousSecretExpiresAt };
    },

    /**
     * Sends a `webhook.test` event through the normal delivery path (a real delivery workflow,
     * retries included) and answers with the first attempt's outcome.
     */
    async sendTest(
      owner: WebhookOwner,
      id: string,
      op: OperationKey | null = null,
    ): Promise<{ eventId: string; data: Record<string, unknown>; outcome: FirstOutcomeUpdateResult }> {
      const row = await load(owner, id);
      // Keyed: the event id derives from the key, so a retry after a crash joins the same delivery.
      const eventId = op ? `evt_${operationHex(op, `webhook-test:${row.id}`)}` : newEventId();
      const data = checkWebhookEventData('webhook.test', {
        webhook_id: row.id,
        message: WEBHOOK_TEST_MESSAGE,
        test: true,
      });
      if (op) {
        // A retry after a crash whose delivery already had its first attempt: answer from the log
        // (the workflow may have finished; starting it again would send a second test event).
        const [delivery, first] = await Promise.all([
          repo.latestRun(row.id, eventId),
          repo.firstAttempt(row.id, eventId, 1),
        ]);
        if (delivery && first) {
          const attempt = {
            deliveryId: first.id,
            attempt: first.attempt ?? 1,
            ok: first.outcome === 'success',
            httpStatus: first.http_status,
            errorKind: first.error_kind,
            latencyMs: first.latency_ms,
            responseSnippet: first.response_snippet,
            attemptedAtMs: first.attempted_at.getTime(),
          };
          return { eventId, data, outcome: { state: delivery.state, attempt } };
        }
      }
      await repo.insertEvent({
        id: eventId,
        type: 'webhook.test',
        owner_user_ids: row.owner_user_id ? [row.owner_user_id] : [],
        owner_team_id: row.owner_team_id,
        data,
        created_at: new Date(),
      });
      const input = deliveryInput(deps.config, {
        webhookId: row.id,
        eventId,
        eventType: 'webhook.test',
        run: 1,
        source: 'test',
        ownerTeamId: row.owner_team_id,
        ownerUserId: row.owner_user_id,
        subscriptionLabel: webhookSubscriptionLabel(row),
      });
      const startOptions = {
        ...deliveryStartOptions(deps.config, input, 'event'),
        workflowIdConflictPolicy: op ? ('USE_EXISTING' as const) : ('FAIL' as const),
      };
      const update = deps.temporal.workflow.executeUpdateWithStart(firstOutcomeUpdate, {
        startWorkflowOperation: new WithStartWorkflowOperation<WebhookDeliveryWorkflow>(
          WEBHOOK_DELIVERY_WORKFLOW,
          startOptions,
        ),
      });
      // The answer waits for the first attempt only so long (decision 0202): a worker that is
      // catching up (restart, outage) must not hold the request and its Idempotency-Key. Once the
      // delivery is durably started, `pending` is a true answer; the attempt shows in the log.
      let timer: NodeJS.Timeout | undefined;
      const waited = await Promise.race([
        update.then((outcome) => ({ outcome })),
        new Promise<null>((r) => (timer = setTimeout(() => r(null), deps.config.WEBHOOK_TEST_WAIT_MS))),
      ]).finally(() => clearTimeout(timer));
      if (waited) return { eventId, data, outcome: waited.outcome };
      update.catch(() => undefined); // still waiting on the first attempt; its answer is no longer needed
      const started = await deps.temporal.workflow
        .getHandle(startOptions.workflowId)
        .describe()
        .then(
          () => true,
          () => false,
        );
      // Not started yet (Temporal slow to take the start): wait for the update as before.
      if (!started) return { eventId, data, outcome: await update };
      return { eventId, data, outcome: { state: 'pending', attempt: null } };
    },

    /** The delivery log: the 50 most recent attempts (and not-sent outcomes), newest first. */
    async listDeliveries(
      owner: WebhookOwner | null,
      id: string,
    ): Promise<Array<WebhookAttemptRow & { state: WebhookDeliveryState }>> {
      const row = await load(owner, id);
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
      const row = await load(owner, id);
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
        return await startReplay(row, eventId, latest.event_type, latest.run, replayOp, replayedBy);
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
      const row = await load(owner, id);
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
          replayed.push(await startReplay(row, d.event_id, d.event_type, d.run, replayOp, replayedBy));
        } catch (err) {
          if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
          skipped.push(d.event_id);
        }
      }
      return { replayed, skipped, more: dead.length > MAX_REPLAY_BATCH };
    },

    /**
     * Starts the subscription's actor from its row if no run is open (`ops reconcile --fix`: the
     * workflow went missing — terminated, or lost with a dev server's state); a running one is kept.
     */
    async ensureActor(id: string): Promise<void> {
      const row = await load(null, id);
      await deps.temporal.workflow.start<WebhookSubscriptionWorkflow>(WEBHOOK_SUBSCRIPTION_WORKFLOW, {
        ...(await actorStartOptions(row)),
        workflowIdConflictPolicy: 'USE_EXISTING',
      });
    },
  };
}
export type WebhooksService = ReturnType<typeof createWebhooksService>;
