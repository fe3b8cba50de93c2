import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { testEnv } from '../helpers/env';
import { eventually } from '../helpers/harness';
import {
  kickSignal,
  matchmakerStatsQuery,
  matchmakerWorkflowId,
  MATCHMAKER_WORKFLOW,
  type KickSignalInput,
  type MatchmakerInput,
  type MatchmakerWorkflow,
  type RunMatchingRoundResult,
} from '#workflows/matchmaking/contract';
import type { createMatchmakingActivities } from '#activities/matchmaking/matchmaking-activities';

/**
 * The matchmaker's batch window (decision 0215), on the real dev server with a stubbed round:
 * joins are coalesced by the window, a freed slot (or raised slots) ends a window being waited
 * and runs the round at once. The window is 10 minutes and the idle poll an hour, so a round that
 * follows a kick within the test's deadline can only be the urgent kick's doing.
 */
const WINDOW_MS = 10 * 60_000;

type Stub = Pick<ReturnType<typeof createMatchmakingActivities>, 'runMatchingRound'>;
const EMPTY: RunMatchingRoundResult = {
  liveEvents: 0,
  freeSlots: 0,
  considered: 0,
  offered: 0,
  retried: 0,
  started: 0,
  refused: 0,
  pending: 0,
};

describe('matchmaker: a freed slot skips the batch window, joins stay coalesced', () => {
  let client: Client;
  let connection: Connection;
  let native: NativeConnection;
  let worker: Worker;
  let run: Promise<void>;
  let taskQueue: string;
  let rounds = 0;

  beforeAll(async () => {
    const env = testEnv();
    try {
      Runtime.install({ logger: new DefaultLogger('WARN') });
    } catch {
      /* already installed in this jest worker process */
    }
    taskQueue = `mm-window-${randomBytes(4).toString('hex')}`;
    connection = await Connection.connect({ address: env.temporalAddress });
    client = new Client({ connection });
    native = await NativeConnection.connect({ address: env.temporalAddress });
    const activities: Stub = {
      async runMatchingRound() {
        rounds++;
        // Every round found work (an offer started), so the matchmaker keeps its batch pace.
        return { ...EMPTY, offered: 1, started: 1 };
      },
    };
    worker = await Worker.create({
      connection: native,
      taskQueue,
      workflowBundle: { codePath: env.workflowBundle },
      activities,
    });
    run = worker.run();
  }, 60_000);

  afterAll(async () => {
    try {
      await client?.workflow.getHandle(matchmakerWorkflowId(taskQueue)).terminate('test over');
    } catch {
      /* never started */
    }
    if (worker?.getState() === 'RUNNING') worker.shutdown();
    await run?.catch(() => undefined);
    await native?.close();
    await connection?.close();
  });

  /** Timers the matchmaker has started (each batch window is one). */
  const timersStarted = async () => {
    const history = await client.workflow.getHandle(matchmakerWorkflowId(taskQueue)).fetchHistory();
    return (history.events ?? []).filter((e) => e.timerStartedEventAttributes).length;
  };

  it('a join waits for the window; a slot freed during it runs the round at once; so do raised slots', async () => {
    const input: MatchmakerInput = { intervalMs: WINDOW_MS, idlePollMs: 60 * 60_000, batchSize: 10 };
    const handle = await client.workflow.signalWithStart<MatchmakerWorkflow, [KickSignalInput]>(MATCHMAKER_WORKFLOW, {
      workflowId: matchmakerWorkflowId(taskQueue),
      taskQueue,
      args: [input],
      signal: kickSignal,
      signalArgs: [{ reason: 'queue_join' }],
    });
    // The first kick: no round before it, so no window either.
    await eventually(async () => rounds === 1 && (await handle.query(matchmakerStatsQuery)).rounds === 1, 30_000);

    // A join right after: the matchmaker waits out the window (a timer of up to 10 minutes).
    const timersBefore = await timersStarted();
    await handle.signal(kickSignal, { reason: 'queue_join' });
    await eventually(async () => (await timersStarted()) > timersBefore, 30_000);
    expect(rounds).toBe(1);
    // A second join changes nothing: still one round, still the same window.
    await handle.signal(kickSignal, { reason: 'queue_join' });
    expect((await handle.query(matchmakerStatsQuery)).kicks).toBe(3);
    expect(rounds).toBe(1);

    // A slot frees: the window ends and the round runs (long before its 10 minutes).
    await handle.signal(kickSignal, { reason: 'slot_freed' });
    await eventually(async () => rounds === 2, 30_000);

    // The recruiter raises the event's slots: the same.
    await handle.signal(kickSignal, { reason: 'slots_raised' });
    await eventually(async () => rounds === 3, 30_000);

    const history = await handle.fetchHistory();
    const markers = (history.events ?? []).filter((e) => e.markerRecordedEventAttributes);
    expect(markers.length).toBeGreaterThanOrEqual(1);
  });
});
