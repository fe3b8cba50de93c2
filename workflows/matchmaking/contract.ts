import type { ActivityOptions } from '@temporalio/common';
import { defineQuery, defineSignal } from '@temporalio/workflow';
import { detailLines, temporalName, type StartMetadata } from '../shared/contract';
/**
 * Contract of the matchmaking capability: the matchmaker workflow (docs/decisions/0010-matchmaker.md).
 * Holds every message definition, id helper, type name, Input/Result type and vocabulary of the capability; no I/O (imports only @temporalio/workflow, @temporalio/common and other contracts), so workflows, activities, clients and the API all import it.
 */

/** One matchmaker per task queue (tests run one per test file). */
export const matchmakerWorkflowId = (taskQueue: string): string => `matchmaker:${taskQueue}`;

export interface MatchmakerInput {
  /** Batch window: at most one round per interval; rounds repeat at this pace while work exists. */
  intervalMs: number;
  /** Safety-net round when idle (a kick was lost, or capacity changed without one). */
  idlePollMs: number;
  /** Waiting entries considered per round. */
  batchSize: number;
  /** Carried over continue-as-new. */
  workExists?: boolean;
  pendingKick?: boolean;
  /** A kick carried over said a slot freed: the first round of the next run skips the window (decision 0215). */
  pendingUrgentKick?: boolean;
  /** Counters for operators (query `stats`), carried over continue-as-new. */
  totals?: { rounds: number; kicks: number; runs: number };
}

/** Why the matchmaker was woken (for the workflow's log and history). */
export type KickReason =
  | 'queue_join'
  | 'entry_returned'
  | 'slot_freed'
  | 'slots_raised'
  | 'event_live'
  | 'worker_start'
  | 'settings_changed'
  | 'manual';

/**
 * Kicks that run a round at once, skipping the batch window (decision 0215): an event gained a free
 * slot (a match declined, expired or completed; the recruiter raised its interview slots). Seekers
 * already wait for it, so nothing is gained by coalescing; joins stay coalesced by the window.
 */
export const URGENT_KICK_REASONS: readonly KickReason[] = ['slot_freed', 'slots_raised'];
export const isUrgentKick = (reason: KickReason): boolean => URGENT_KICK_REASONS.includes(reason);

/**
 * How workflows call the `kickMatchmaker` activity (queue entry, match, live event). A kick is an
 * optimisation (the matchmaker's idle poll finds the work anyway) that each caller awaits in its own
 * loop, so its retries are few and short: a lost kick holds its caller up for about a minute at most.
 */
export const KICK_MATCHMAKER_ACTIVITY_OPTIONS: ActivityOptions = {
  startToCloseTimeout: '10 seconds',
  retry: { initialInterval: '200 ms', maximumInterval: '5 seconds', maximumAttempts: 5 },
};

export interface KickSignalInput {
  reason: KickReason;
}

export interface RunMatchingRoundInput {
  batchSize: number;
}

export interface RunMatchingRoundResult {
  /** Live events locked by this round and their free slots before it planned. */
  liveEvents: number;
  freeSlots: number;
  /** Waiting entries locked and considered. */
  considered: number;
  /** Pairs planned (offers written) this round, plus stale offers retried. */
  offered: number;
  retried: number;
  /** Offers the entries accepted (match workflows started) and refused. */
  started: number;
  refused: number;
  /** Offers left for the next round (transient failure). */
  pending: number;
  /**
   * The round stopped at MATCHMAKER_ROUND_MAX_OFFERS planned offers: more pairs may be possible
   * now, so the matchmaker runs the next round at once (absent before rounds were bounded).
   */
  more?: boolean;
}

export interface KickMatchmakerInput {
  reason: KickReason;
}

export const MATCHMAKER_BATCH_SIZE = 500;
/** Offers one matching round makes at most (bounded work per round, decision 0190). */
export const MATCHMAKER_ROUND_MAX_OFFERS = 32;
/** An `offering` offer untouched this long is retried by the next round (its round died). */
export const STALE_OFFER_MS = 10_000;
/** Deadline of each Temporal call inside a matching round (an offer Update, a match start, a kick). */
export const TEMPORAL_CALL_DEADLINE_MS = 5_000;

export function matchmakerInput(config: { MATCHMAKER_INTERVAL_MS: number }): MatchmakerInput {
  return {
    intervalMs: config.MATCHMAKER_INTERVAL_MS,
    idlePollMs: Math.max(1_000, 10 * config.MATCHMAKER_INTERVAL_MS),
    batchSize: MATCHMAKER_BATCH_SIZE,
  };
}

// Messages of matchmaker.ts (the API and activities send them; the workflow handles them).
/** Wakes the matchmaker: a seeker joined, an entry came back, a slot was freed, an event went live (urgent reasons skip the batch window). */
export const kickSignal = defineSignal<[KickSignalInput]>('kick');
/** Rounds and kicks since the matchmaker first started (all runs), and the last round's figures. */
export const matchmakerStatsQuery = defineQuery<{
  rounds: number;
  kicks: number;
  runs: number;
  lastRound: RunMatchingRoundResult | null;
}>('stats');

/** Workflow type `matchmakerWorkflow` (its export in workflows/index.ts): clients start it by this name, never by importing the implementation. */
export const MATCHMAKER_WORKFLOW = 'matchmakerWorkflow';
export type MatchmakerWorkflow = (input: MatchmakerInput) => Promise<void>;

/** What the Temporal UI shows for `matchmaker:<queue>` (workflows/shared/summary.ts). */
export function matchmakerStartMetadata(taskQueue: string, intervalMs: number): StartMetadata {
  return {
    staticSummary: `Matchmaker: pairs waiting seekers with open jobs of live events (task queue ${taskQueue})`,
    staticDetails: detailLines([
      [
        'What',
        'one matching round at a time, at most one per interval while seekers wait; woken by joins ' +
          'and go-lives, and at once by a freed slot or raised interview slots',
      ],
      ['Interval', `${intervalMs} ms`],
      ['Task queue', taskQueue],
    ]),
  };
}
