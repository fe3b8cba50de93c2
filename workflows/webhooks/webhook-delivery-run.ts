import {
  ApplicationFailure,
  condition,
  setCurrentDetails,
  setHandler,
  sleep,
  upsertSearchAttributes,
} from '@temporalio/workflow';
import {
  cancelDeliverySignal,
  firstOutcomeUpdate,
  replayDeadLetterUpdate,
  DELIVERY_NOT_DEAD_LETTER,
  type AttemptSummary,
  type CancelDeliverySignalInput,
  type ReplayDeadLetterUpdateInput,
  type WebhookDeliveryInput,
  type WebhookDeliveryState,
} from './contract';
import { JobfairEntity, JobfairStatus, JobfairTeamId, JobfairUserId, JobfairWebhookId } from '../shared/contract';

/** What one run of `webhookDeliveryWorkflow` knows while it goes: read by its handlers, moved by its steps. */
export interface DeliveryRun {
  input: WebhookDeliveryInput;
  state: WebhookDeliveryState;
  attempts: number;
  cancelled: CancelDeliverySignalInput['reason'] | null;
  first: AttemptSummary | null;
  firstState: WebhookDeliveryState | null;
  firstKnown: boolean;
  /** A dead letter waiting for its replay (decision 0196), and the replay asked for. */
  holding: boolean;
  replayAsk: ReplayDeadLetterUpdateInput | null;
  lastOutcome: string;
  /** The delivery in words, for the current details operators read in the Temporal UI. */
  what: string;
}

export function newDeliveryRun(input: WebhookDeliveryInput): DeliveryRun {
  return {
    input,
    state: 'pending',
    attempts: 0,
    cancelled: null,
    first: null,
    firstState: null,
    firstKnown: false,
    holding: false,
    replayAsk: null,
    lastOutcome: '',
    what: `${input.eventType} ${input.eventId} to ${input.subscriptionLabel ? `${input.subscriptionLabel} ` : ''}${input.webhookId}${input.run > 1 ? ` (replay, run ${input.run})` : ''}`,
  };
}

/** The cancel signal, the first-outcome update and the dead letter's replay update. */
export function registerDeliveryHandlers(run: DeliveryRun): void {
  const { input } = run;
  setHandler(cancelDeliverySignal, ({ reason }: CancelDeliverySignalInput) => {
    run.cancelled ??= reason;
  });
  setHandler(firstOutcomeUpdate, async () => {
    await condition(() => run.firstKnown);
    return { state: run.firstState ?? run.state, attempt: run.first };
  });
  // Decision 0196: a dead letter waits for its replay. The update reaches a waiting dead letter, or —
  // by update-with-start — the new run it starts when the dead letter has already closed.
  setHandler(
    replayDeadLetterUpdate,
    (ask: ReplayDeadLetterUpdateInput) => {
      if (run.holding) run.replayAsk = ask;
      return { eventId: input.eventId, run: ask.run };
    },
    {
      validator: (ask: ReplayDeadLetterUpdateInput) => {
        const isThisNewRun = input.source === 'replay' && input.run === ask.run;
        if (!(run.holding && run.replayAsk === null) && !isThisNewRun) {
          throw ApplicationFailure.nonRetryable(
            `delivery of ${input.eventId} to ${input.webhookId} (run ${input.run}) is ${run.state}, not a dead letter waiting for replay`,
            DELIVERY_NOT_DEAD_LETTER,
          );
        }
      },
    },
  );
}

/** The delivery's state, also as search attributes. */
export function setDeliveryState(run: DeliveryRun, s: WebhookDeliveryState): void {
  const { input } = run;
  run.state = s;
  upsertSearchAttributes([
    { key: JobfairEntity, value: 'webhook_delivery' },
    { key: JobfairStatus, value: s },
    { key: JobfairWebhookId, value: input.webhookId },
    ...(input.ownerTeamId ? [{ key: JobfairTeamId, value: input.ownerTeamId }] : []),
    ...(input.ownerUserId ? [{ key: JobfairUserId, value: input.ownerUserId }] : []),
  ]);
}

const utc = (ms: number) => `${new Date(ms).toISOString().slice(11, 16)} UTC`;

/** Waits `delay` before retry `retry` (a workflow timer), or until the delivery is cancelled. */
export async function waitForRetry(run: DeliveryRun, retry: number, delay: number): Promise<void> {
  const retries = run.input.retryScheduleMs.length;
  // Current details for operators in the Temporal UI (no command: replay-safe without a patch).
  setCurrentDetails(
    `Retry ${retry} of ${retries} of ${run.what} at ${utc(Date.now() + delay)} after ${run.lastOutcome}.`,
  );
  await Promise.race([
    sleep(delay, { summary: `retry ${retry} of ${retries} after ${delay} ms` }),
    condition(() => run.cancelled !== null),
  ]);
}
