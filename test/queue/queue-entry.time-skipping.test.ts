import { randomUUID } from 'node:crypto';
import { loadConfig } from '#lib/config';
import {
  QUEUE_ENTRY_WORKFLOW,
  queueEntryStateQuery,
  queueEntryWorkflowId,
  type QueueEntryInput,
  type QueueEntryWorkflow,
} from '#workflows/queue/contract';
import type { createQueueActivities, ProjectQueueEntryInput } from '#activities/queue/queue-activities';
import type { createMatchmakingActivities } from '#activities/matchmaking/matchmaking-activities';
import { createTimeSkipping, timerDurations, until, type TimeSkipping } from '../helpers/time-skipping';

/** Production durations: the config defaults, exactly as a deployment without overrides runs them. */
const { QUEUE_ENTRY_TTL_MS } = loadConfig({});
/** Workflow time runs on (at the speed of real time) while a workflow task or activity is in flight: room for a loaded machine. */
const SLACK_MS = 10_000;

type Stubs = Pick<ReturnType<typeof createQueueActivities>, 'projectQueueEntry'> &
  Pick<ReturnType<typeof createMatchmakingActivities>, 'kickMatchmaker'>;

function stubs() {
  const projections: ProjectQueueEntryInput[] = [];
  const kicks: string[] = [];
  const activities: Stubs = {
    async projectQueueEntry(input) {
      projections.push(structuredClone(input));
    },
    async kickMatchmaker({ reason }) {
      kicks.push(reason);
    },
  };
  return { activities, projections, kicks };
}

describe('queueEntry on the time-skipping server (production durations, stubbed activities)', () => {
  let ts: TimeSkipping;
  beforeAll(async () => {
    ts = await createTimeSkipping();
  }, 300_000);
  afterAll(async () => ts?.teardown());

  it(`a waiting entry expires when its TTL (${QUEUE_ENTRY_TTL_MS / 3_600_000} h) elapses, and not before`, async () => {
    const { activities, projections, kicks } = stubs();
    await ts.withWorker(activities, async (taskQueue) => {
      const userId = randomUUID();
      const enteredAtMs = await ts.now();
      const input: QueueEntryInput = {
        queueId: randomUUID(),
        userId,
        liveEventId: null,
        liveEventSlug: null,
        agentIdentity: null,
        viaAgent: false,
        enteredAtMs,
        ttlMs: QUEUE_ENTRY_TTL_MS,
      };
      const handle = await ts.env.client.workflow.start<QueueEntryWorkflow>(QUEUE_ENTRY_WORKFLOW, {
        taskQueue,
        workflowId: queueEntryWorkflowId(userId),
        args: [input],
      });
      await until(() => projections.length > 0, 'the waiting entry is projected');
      expect(projections[0]).toMatchObject({
        state: { status: 'waiting', expiresAtMs: enteredAtMs + QUEUE_ENTRY_TTL_MS },
        endedAtMs: null,
      });

      // One minute short of the TTL: still waiting.
      await ts.env.sleep(QUEUE_ENTRY_TTL_MS - 60_000);
      expect(await ts.now()).toBeGreaterThanOrEqual(enteredAtMs + QUEUE_ENTRY_TTL_MS - 60_000);
      expect((await handle.query(queueEntryStateQuery)).status).toBe('waiting');
      expect(projections.map((p) => p.state.status)).toEqual(['waiting']);

      // Awaiting the result lets the server skip to the TTL timer.
      const result = await handle.result();
      expect(result).toMatchObject({
        status: 'expired',
        endReason: 'time to live elapsed',
        expiresAtMs: enteredAtMs + QUEUE_ENTRY_TTL_MS,
      });
      const last = projections.at(-1)!;
      expect(last.state.status).toBe('expired');
      // Ended at the TTL in workflow time (the first workflow task ran a few ms after enteredAtMs).
      expect(last.endedAtMs!).toBeGreaterThanOrEqual(enteredAtMs + QUEUE_ENTRY_TTL_MS);
      expect(last.endedAtMs! - (enteredAtMs + QUEUE_ENTRY_TTL_MS)).toBeLessThan(SLACK_MS);
      // One durable timer, for the TTL less the moments before the first workflow task.
      const timers = timerDurations(await handle.fetchHistory());
      expect(timers).toHaveLength(1);
      expect(timers[0]).toBeLessThanOrEqual(QUEUE_ENTRY_TTL_MS);
      expect(timers[0]).toBeGreaterThan(QUEUE_ENTRY_TTL_MS - SLACK_MS);
      expect(kicks).toEqual([]);
    });
  });
});
