import {
  allHandlersFinished,
  condition,
  continueAsNew,
  patched,
  proxyActivities,
  setCurrentDetails,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import {
  DEAD_LETTER_HOLD_MS,
  type ReplayDeadLetterUpdateInput,
  type WebhookDeliveryInput,
  type WebhookDeliveryResult,
  type WebhookDeliveryState,
} from './contract';
import type { createWebhookDeliveryActivities } from '../../activities/webhooks/delivery-activities';
import { JobfairStatus } from '../shared/contract';
import {
  newDeliveryRun,
  registerDeliveryHandlers,
  setDeliveryState,
  waitForRetry,
  type DeliveryRun,
} from './webhook-delivery-run';
import { attemptOnce, newLogId, outcomeInWords, reportOutcome } from './webhook-delivery-attempt';

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

  const run = newDeliveryRun(input);
  registerDeliveryHandlers(run);

  const retries = input.retryScheduleMs.length;
  // Decision 0195: the dispatcher made the first attempt(s); this run only retries. Old histories
  // never carry `resume`, so their commands are unchanged.
  const resume = input.resume ?? null;
  setDeliveryState(run, resume ? 'retrying' : 'pending');
  setCurrentDetails(
    resume
      ? `Delivering ${run.what}: waiting for retry ${resume.afterAttempt} of ${retries}.`
      : `Delivering ${run.what}: first attempt.`,
  );
  const begun = await beginWebhookDelivery({
    ...key,
    source: input.source,
    ...(input.replayOp ? { replayOp: input.replayOp } : {}),
  });
  if (begun.state !== 'pending') return finish(run, begun.state);
  if (resume) {
    run.attempts = resume.afterAttempt;
    run.firstKnown = true;
    run.lastOutcome = resume.lastOutcome;
    await waitForRetry(run, resume.afterAttempt, input.retryScheduleMs[resume.afterAttempt - 1]);
  }

  for (let attempt = resume ? resume.afterAttempt + 1 : 1; attempt <= retries + 1; attempt++) {
    if (run.cancelled) {
      await recordWebhookDeliveryEnd({
        ...key,
        logId: newLogId(),
        state: 'cancelled',
        errorKind: `subscription_${run.cancelled}`,
      });
      return finish(run, 'cancelled');
    }
    const nextDelayMs = attempt <= retries ? input.retryScheduleMs[attempt - 1] : null;
    const result = await attemptOnce({ attemptWebhookDelivery, recordWebhookDeliveryEnd }, key, attempt, nextDelayMs);
    await reportOutcome(run, attempt, result);
    if (result.state !== 'retrying') return finish(run, result.state);
    setDeliveryState(run, 'retrying');
    run.lastOutcome = outcomeInWords(result);
    await waitForRetry(run, attempt, nextDelayMs!);
  }
  // Unreachable: the last attempt always ends in a final state.
  return finish(run, run.state);
}

/**
 * The delivery's end: its final state (details, search attributes). A dead letter then waits up to
 * DEAD_LETTER_HOLD_MS for its replay (decision 0196), which continues as the new run.
 */
async function finish(run: DeliveryRun, s: WebhookDeliveryState): Promise<WebhookDeliveryResult> {
  const { input, what } = run;
  setCurrentDetails(
    s === 'dead_letter'
      ? `Dead letter: ${what} gave up after ${run.attempts} attempts${run.lastOutcome ? `, last ${run.lastOutcome}` : ''}. Replay: npm run ops -- replay --webhook ${input.webhookId} --since <time> --execute`
      : `${s === 'delivered' ? 'Delivered' : `Ended (${s})`}: ${what}${run.attempts ? ` after ${run.attempts} attempt(s)` : ''}.`,
  );
  setDeliveryState(run, s);
  run.firstKnown = true;
  if (s === 'dead_letter' && patched('dead-letter-waits-for-replay')) {
    run.holding = true;
    const asked = await condition(() => run.replayAsk !== null, DEAD_LETTER_HOLD_MS);
    run.holding = false;
    if (asked && run.replayAsk) {
      const ask: ReplayDeadLetterUpdateInput = run.replayAsk;
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
  return { state: run.state, attempts: run.attempts };
}
