import {
  condition,
  continueAsNew,
  log,
  patched,
  proxyActivities,
  setHandler,
  sleep,
  workflowInfo,
} from '@temporalio/workflow';
import {
  isUrgentKick,
  kickSignal,
  matchmakerStatsQuery,
  type KickSignalInput,
  type MatchmakerInput,
  type RunMatchingRoundResult,
} from './contract';
import type { createMatchmakingActivities } from '../../activities/matchmaking/matchmaking-activities';

// A round heartbeats at every step and bounds each Temporal call (TEMPORAL_CALL_DEADLINE_MS), so a
// hung attempt is abandoned after the heartbeat timeout and retried; start-to-close is only the
// backstop for a round that keeps beating but never ends (a 2-minute stall was seen without it).
const { runMatchingRound } = proxyActivities<ReturnType<typeof createMatchmakingActivities>>({
  startToCloseTimeout: '1 minute',
  heartbeatTimeout: '10 seconds',
  // A round that failed because PostgreSQL or Temporal is away is retried at most 2 s apart, so
  // matching resumes within ~2 s of the dependency being back (10 s before: decision 0204).
  retry: { initialInterval: '500 ms', maximumInterval: '2 seconds' },
});

/**
 * A freed slot (or raised slots) runs a round at once instead of waiting out the batch window
 * (decision 0215). Asked only when a window is about to be waited, so histories of older code
 * (a plain `sleep` there) replay unchanged.
 */
const URGENT_KICKS_SKIP_WINDOW = 'matchmaker-slot-freed-skips-window';

/** History events per run before continuing as new even without the server's suggestion. */
const MAX_HISTORY = 5_000;

/**
 * The matchmaker, `matchmaker:<taskQueue>`: a long-running loop that runs one matching round (an
 * activity over PostgreSQL, see docs/decisions/0010-matchmaker.md) when kicked or every interval
 * while work exists, and otherwise sleeps until a kick or the idle poll. Kicks that arrive during
 * a round are coalesced into the next one, no sooner than one interval after the last round
 * started (the batch window). A round makes at most MATCHMAKER_ROUND_MAX_OFFERS offers; one that
 * stopped there (`more`) is followed by the next at once, without the window (decision 0190;
 * patch 'matchmaker-bounded-rounds'). A kick saying a slot freed skips the window too: it ends
 * one being waited and starts the round at once (decision 0215; patch
 * 'matchmaker-slot-freed-skips-window'); joins stay coalesced by the window. It holds no state of
 * its own beyond counters: PostgreSQL and the queue-entry / match workflows hold the truth, so
 * continue-as-new carries only three flags.
 */
export async function matchmakerWorkflow(input: MatchmakerInput): Promise<void> {
  let kicks = input.pendingKick ? 1 : 0;
  // A kick since the last round said a slot freed (carried over continue-as-new as `pendingUrgentKick`).
  let urgent = input.pendingUrgentKick === true;
  let totalKicks = input.totals?.kicks ?? 0;
  let workExists = input.workExists ?? true;
  let lastRoundAtMs = 0;
  let rounds = input.totals?.rounds ?? 0;
  const runs = (input.totals?.runs ?? 0) + 1;
  let lastRound: RunMatchingRoundResult | null = null;

  setHandler(kickSignal, ({ reason }: KickSignalInput) => {
    kicks++;
    totalKicks++;
    if (isUrgentKick(reason)) urgent = true;
  });
  setHandler(matchmakerStatsQuery, () => ({ rounds, kicks: totalKicks, runs, lastRound }));

  // A round cut at its offer bound (`more`) is followed by the next one at once: no batch window.
  let runNow = false;
  for (;;) {
    if (!runNow) {
      await condition(() => kicks > 0, workExists ? input.intervalMs : input.idlePollMs, {
        summary: workExists ? 'next batch' : 'idle until a kick',
      });
      const sinceLast = Date.now() - lastRoundAtMs;
      if (sinceLast < input.intervalMs) {
        if (patched(URGENT_KICKS_SKIP_WINDOW)) {
          // The window ends early when a slot frees meanwhile (or already has).
          if (!urgent)
            await condition(() => urgent, input.intervalMs - sinceLast, {
              summary: 'batch window (a freed slot ends it)',
            });
        } else await sleep(input.intervalMs - sinceLast, { summary: 'batch window' });
      }
    }
    kicks = 0;
    urgent = false;
    lastRoundAtMs = Date.now();
    lastRound = await runMatchingRound({ batchSize: input.batchSize });
    rounds++;
    // More may be possible right away: a full batch, refused offers (their seekers or slots are
    // free again), or offers left for a retry. Otherwise only a kick (or the idle poll) helps.
    workExists = lastRound.started > 0 || lastRound.refused > 0 || lastRound.pending > 0;
    // Rounds of activities before the bounded rounds never say `more`; their histories replay unchanged.
    runNow = lastRound.more === true && patched('matchmaker-bounded-rounds');
    if (lastRound.offered + lastRound.retried > 0) log.info('matching round', { ...lastRound });
    const info = workflowInfo();
    if (info.continueAsNewSuggested || info.historyLength > MAX_HISTORY) {
      await continueAsNew<typeof matchmakerWorkflow>({
        ...input,
        workExists,
        pendingKick: kicks > 0 || runNow,
        pendingUrgentKick: urgent,
        totals: { rounds, kicks: totalKicks, runs },
      });
    }
  }
}
