import {
  ApplicationFailure,
  allHandlersFinished,
  condition,
  continueAsNew,
  getExternalWorkflowHandle,
  patched,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  sleep,
  upsertSearchAttributes,
  uuid4,
} from '@temporalio/workflow';
import {
  cancelDeliverySignal,
  firstOutcomeUpdate,
  replayDeadLetterUpdate,
  DELIVERY_NOT_DEAD_LETTER,
  DEAD_LETTER_HOLD_MS,
  type ReplayDeadLetterUpdateInput,
  webhookSubscriptionWorkflowId,
  attemptOutcomeSignal,
  type AttemptSummary,
  type CancelDeliverySignalInput,
  type FirstOutcomeUpdateResult,
  type WebhookDeliveryInput,
  type WebhookDeliveryResult,
  type WebhookDeliveryState,
} from './contract';
import type {
  createWebhookDeliveryActivities,
  AttemptWebhookDeliveryResult,
} from '../../activities/webhooks/delivery-activities';
import { JobfairEntity, JobfairStatus, JobfairTeamId, JobfairUserId, JobfairWebhookId } from '../shared/contract';

const newLogId = () => `dlv_${uuid4().replace(/-/g, '')}`;

/**
 * One event to one subscription: `webhook-delivery:<whk>:<evt>`. One activity per attempt
 * (maximumAttempts 1; the outcome is a value; secret and payload are loaded inside the
 * activity), workflow timers between attempts, dead letter after the last retry fails. Each
 * attempt's outcome is signalled to the subscription actor, which counts consecutive failures.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const key = { webhookId: input.webhookId, eventId: input.eventId, run: input.run };
  const { beginWebhookDelivery, recordWebhookDeliveryEnd } = proxyActivities<
    ReturnType<typeof createWebhookDeliveryActivities>
  >({
    startToCloseTimeout: '30 seconds',
    retry: { initialInterval: '200 ms', maximumInterval: '30 seconds' },
  });
  const { attemptWebhookDelivery } = proxyActivities<ReturnType<typeof createWebhookDeliveryActivities>>({
    // The HTTP timeout plus room for loading, signing and recording.
    startToCloseTimeout: input.attemptTimeoutMs + 15_000,
    retry: { maximumAttempts: 1 },
  });

  let state: WebhookDeliveryState = 'pending';
  let attempts = 0;
  let cancelled: CancelDeliverySignalInput['reason'] | null = null;
  let first: AttemptSummary | null = null;
  let firstState: WebhookDeliveryState | null = null;
  let firstKnown = false;

  setHandler(cancelDeliverySignal, ({ reason }: CancelDeliverySignalInput) => {
    cancelled ??= reason;
  });
  setHandler(firstOutcomeUpdate, async () => {
    await condition(() => firstKnown);
    return { state: firstState ?? state, attempt: first };
  });
  // Decision 0196: a dead letter waits for its replay. The update reaches a waiting dead letter, or —
  // by update-with-start — the new run it starts when the dead letter has already closed.
  let holding = false;
  let replayAsk: ReplayDeadLetterUpdateInput | null = null;
  setHandler(
    replayDeadLetterUpdate,
    (ask: ReplayDeadLetterUpdateInput) => {
      if (holding) replayAsk = ask;
      return { eventId: input.eventId, run: ask.run };
    },
    {
      validator: (ask: ReplayDeadLetterUpdateInput) => {
        const isThisNewRun = input.source === 'replay' && input.run === ask.run;
        if (!(holding && replayAsk === null) && !isThisNewRun) {
          throw ApplicationFailure.nonRetryable(
            `delivery of ${input.eventId} to ${input.webhookId} (run ${input.run}) is ${state}, not a dead letter waiting for replay`,
            DELIVERY_NOT_DEAD_LETTER,
          );
        }
      },
    },
  );

  const setState = (s: WebhookDeliveryState) => {
    state = s;
    upsertSearchAttributes([
      { key: JobfairEntity, value: 'webhook_delivery' },
      { key: JobfairStatus, value: s },
      { key: JobfairWebhookId, value: input.webhookId },
      ...(input.ownerTeamId ? [{ key: JobfairTeamId, value: input.ownerTeamId }] : []),
      ...(input.ownerUserId ? [{ key: JobfairUserId, value: input.ownerUserId }] : []),
    ]);
  };
  // Current details for operators in the Temporal UI (no command: replay-safe without a patch).
  const what = `${input.eventType} ${input.eventId} to ${input.subscriptionLabel ? `${input.subscriptionLabel} ` : ''}${input.webhookId}${input.run > 1 ? ` (replay, run ${input.run})` : ''}`;
  let lastOutcome = '';
  const utc = (ms: number) => `${new Date(ms).toISOString().slice(11, 16)} UTC`;
  const finish = async (s: WebhookDeliveryState): Promise<WebhookDeliveryResult> => {
    setCurrentDetails(
      s === 'dead_letter'
        ? `Dead letter: ${what} gave up after ${attempts} attempts${lastOutcome ? `, last ${lastOutcome}` : ''}. Replay: npm run ops -- replay --webhook ${input.webhookId} --since <time> --execute`
        : `${s === 'delivered' ? 'Delivered' : `Ended (${s})`}: ${what}${attempts ? ` after ${attempts} attempt(s)` : ''}.`,
    );
    setState(s);
    firstKnown = true;
    if (s === 'dead_letter' && patched('dead-letter-waits-for-replay')) {
      holding = true;
      const asked = await condition(() => replayAsk !== null, DEAD_LETTER_HOLD_MS);
      holding = false;
      if (asked && replayAsk) {
        const ask: ReplayDeadLetterUpdateInput = replayAsk;
        upsertSearchAttributes([{ key: JobfairStatus, value: 'dead_letter_replayed' }]);
        setCurrentDetails(
          `Dead letter replayed (${ask.replayedBy}) as run ${ask.run}: ${what}. Its outcome: workflow webhook-delivery:${input.webhookId}:${input.eventId}, latest run.`,
        );
        await condition(allHandlersFinished);
        await continueAsNew<typeof webhookDeliveryWorkflow>({
          ...input,
          run: ask.run,
          source: 'replay',
          resume: undefined,
          replayOp: ask.replayOp ?? null,
        });
      }
    }
    await condition(allHandlersFinished);
    return { state, attempts };
  };

  const retries = input.retryScheduleMs.length;
  // Decision 0195: the dispatcher made the first attempt(s); this run only retries. Old histories
  // never carry `resume`, so their commands are unchanged.
  const resume = input.resume ?? null;
  setState(resume ? 'retrying' : 'pending');
  setCurrentDetails(
    resume
      ? `Delivering ${what}: waiting for retry ${resume.afterAttempt} of ${retries}.`
      : `Delivering ${what}: first attempt.`,
  );
  const begun = await beginWebhookDelivery({
    ...key,
    source: input.source,
    ...(input.replayOp ? { replayOp: input.replayOp } : {}),
  });
  if (begun.state !== 'pending') return finish(begun.state);
  if (resume) {
    attempts = resume.afterAttempt;
    firstKnown = true;
    lastOutcome = resume.lastOutcome;
    const delay = input.retryScheduleMs[resume.afterAttempt - 1];
    setCurrentDetails(
      `Retry ${resume.afterAttempt} of ${retries} of ${what} at ${utc(Date.now() + delay)} after ${lastOutcome}.`,
    );
    await Promise.race([
      sleep(delay, { summary: `retry ${resume.afterAttempt} of ${retries} after ${delay} ms` }),
      condition(() => cancelled !== null),
    ]);
  }

  for (let attempt = resume ? resume.afterAttempt + 1 : 1; attempt <= retries + 1; attempt++) {
    if (cancelled) {
      await recordWebhookDeliveryEnd({
        ...key,
        logId: newLogId(),
        state: 'cancelled',
        errorKind: `subscription_${cancelled}`,
      });
      return finish('cancelled');
    }
    const deliveryId = newLogId();
    const nextDelayMs = attempt <= retries ? input.retryScheduleMs[attempt - 1] : null;
    let result: AttemptWebhookDeliveryResult;
    try {
      result = await attemptWebhookDelivery({ ...key, attempt, deliveryId, nextDelayMs });
    } catch {
      // The attempt itself could not run to the end (worker lost, activity timeout): count it as a
      // failed attempt, recorded like any other, and keep to the schedule.
      const s: WebhookDeliveryState = nextDelayMs === null ? 'dead_letter' : 'retrying';
      const atMs = Date.now();
      await recordWebhookDeliveryEnd({
        ...key,
        logId: deliveryId,
        state: s,
        errorKind: 'attempt_failed',
        attempt,
        nextDelayMs,
      });
      result = {
        state: s,
        summary: {
          deliveryId,
          attempt,
          ok: false,
          httpStatus: null,
          errorKind: 'attempt_failed',
          latencyMs: null,
          responseSnippet: null,
          attemptedAtMs: atMs,
        },
      };
    }
    attempts = result.summary ? attempt : attempts;
    if (attempt === 1) {
      first = result.summary;
      firstState = result.state;
      firstKnown = true;
    }
    if (result.summary) {
      try {
        await getExternalWorkflowHandle(webhookSubscriptionWorkflowId(input.webhookId)).signal(attemptOutcomeSignal, {
          deliveryId: result.summary.deliveryId,
          eventId: input.eventId,
          ok: result.summary.ok,
          atMs: result.summary.attemptedAtMs,
        });
      } catch {
        // The subscription actor is gone (deleted): nothing left to count.
      }
    }
    if (result.state !== 'retrying') return finish(result.state);
    setState('retrying');
    const delay = nextDelayMs!;
    lastOutcome = result.summary
      ? result.summary.httpStatus
        ? `HTTP ${result.summary.httpStatus}`
        : (result.summary.errorKind ?? 'a failure')
      : 'a failure';
    setCurrentDetails(`Retry ${attempt} of ${retries} of ${what} at ${utc(Date.now() + delay)} after ${lastOutcome}.`);
    await Promise.race([
      sleep(delay, { summary: `retry ${attempt} of ${retries} after ${delay} ms` }),
      condition(() => cancelled !== null),
    ]);
  }
  // Unreachable: the last attempt always ends in a final state.
  return finish(state);
}
