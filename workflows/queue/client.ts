import type { Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { queueEntryWorkflowId, eventEndedSignal } from './contract';

/**
 * Tells waiting queue entries that their event has ended (`eventEnded` signal): each entry ends as
 * `expired`, reason "event ended". One helper for everyone who does it — the liveEvent drain
 * (activities/events) and the matchmaker's straggler sweep. Signals are idempotent, so a retry is
 * harmless; an entry whose workflow has already closed (left or expired meanwhile) is counted, not
 * an error.
 */
export async function tellEntriesEventEnded(
  client: Client,
  entries: ReadonlyArray<{ userId: string; liveEventId: string }>,
  opts: { concurrency?: number } = {},
): Promise<{ signalled: number; alreadyClosed: number }> {
  const concurrency = Math.max(1, opts.concurrency ?? 20);
  let signalled = 0;
  let alreadyClosed = 0;
  for (let i = 0; i < entries.length; i += concurrency) {
    await Promise.all(
      entries.slice(i, i + concurrency).map(async ({ userId, liveEventId }) => {
        try {
          await client.workflow.getHandle(queueEntryWorkflowId(userId)).signal(eventEndedSignal, { liveEventId });
          signalled++;
        } catch (err) {
          if (!(err instanceof WorkflowNotFoundError)) throw err;
          alreadyClosed++;
        }
      }),
    );
  }
  return { signalled, alreadyClosed };
}
