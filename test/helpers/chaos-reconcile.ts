import { setTimeout as sleep } from 'node:timers/promises';
import type { Client } from '@temporalio/client';
import type { Knex } from 'knex';
import { matchStateQuery, matchWorkflowId, type MatchState } from '#workflows/matches/contract';
import { queueEntryStateQuery, queueEntryWorkflowId, type QueueEntryState } from '#workflows/queue/contract';

/**
 * PostgreSQL against Temporal for the chaos matrix (decision 0203). Temporal owns the lifecycles of
 * queue entries and matches; PostgreSQL holds their projections. After a fault row has settled,
 * every projected row must say what its workflow says — a disagreement that outlives the settle
 * deadline is a lost or stale projection (or a workflow that never ran).
 *
 * The workflow's state is read with its `state` query while it runs and from its result once it has
 * closed (no worker needed for that).
 */
export interface WorkflowRead<S> {
  /** null: no such workflow (never started, or gone). */
  state: S | null;
  running: boolean;
  error?: string;
}

async function readState<S>(
  temporal: Client,
  workflowId: string,
  query: Parameters<ReturnType<Client['workflow']['getHandle']>['query']>[0],
): Promise<WorkflowRead<S>> {
  const handle = temporal.workflow.getHandle(workflowId);
  let running: boolean;
  try {
    running = (await handle.describe()).status.name === 'RUNNING';
  } catch (err) {
    if ((err as Error).name === 'WorkflowNotFoundError') return { state: null, running: false };
    throw err;
  }
  if (running) {
    try {
      return { state: (await handle.query(query)) as S, running: true };
    } catch (err) {
      // Closed between describe and query: read its result below.
      if (!/closed|completed|not found/i.test(String((err as Error).message))) throw err;
    }
  }
  try {
    return { state: (await handle.result()) as S, running: false };
  } catch (err) {
    return { state: null, running: false, error: `${(err as Error).name}: ${(err as Error).message}` };
  }
}

export const readMatch = (temporal: Client, matchId: string) =>
  readState<MatchState>(temporal, matchWorkflowId(matchId), matchStateQuery);
export const readQueueEntry = (temporal: Client, userId: string) =>
  readState<QueueEntryState>(temporal, queueEntryWorkflowId(userId), queueEntryStateQuery);

/** Holding a slot at `atMs` by the workflow's own clock: accepted (until completed), or matched inside its window. */
export function activeAt(m: MatchState, atMs: number): boolean {
  if (m.createdAtMs > atMs) return false;
  return liveUntil(m) > atMs;
}

/**
 * When the match stopped holding the seeker, by the times the workflow recorded at its transitions:
 * a decline, the end of the window (an accept after `expiresAtMs` is refused, whether or not the
 * timer has fired), the interview's completion; Infinity while it still holds.
 */
export function liveUntil(m: MatchState): number {
  switch (m.status) {
    case 'declined':
      return m.declinedAtMs ?? m.createdAtMs;
    case 'expired':
      return Math.min(m.expiresAtMs, m.expiredAtMs ?? m.expiresAtMs);
    case 'completed':
      return m.completedAtMs ?? Infinity;
    case 'no_show':
      return m.noShowAtMs ?? Infinity;
    case 'accepted':
      return Infinity;
    case 'matched':
      return m.expiresAtMs;
  }
}

export interface Reconciliation {
  /** Rows whose status (or match id) differs from their workflow's after the settle deadline. */
  disagreements: string[];
  /** Seekers two of whose matches held them at one moment, by the workflows' own transition times. */
  matchedTwice: string[];
  matches: number;
  entries: number;
  /** How long it took for PostgreSQL and Temporal to agree (ms), or the deadline. */
  settledMs: number;
}

/**
 * Reconciles the queue entries of `userIds` and the matches of `eventIds`, polling until the rows
 * agree with the workflows or `settleMs` passes (projections of the last transitions may still be
 * under way when the load ends).
 */
export async function reconcilePostgresWithTemporal(o: {
  knex: Knex;
  temporal: Client;
  userIds: string[];
  eventIds: string[];
  settleMs?: number;
}): Promise<Reconciliation> {
  const t0 = Date.now();
  const deadline = t0 + (o.settleMs ?? 60_000);
  for (;;) {
    const disagreements: string[] = [];
    const matches: Array<{ id: string; status: string; seeker_user_id: string }> = await o
      .knex('matches')
      .whereIn('live_event_id', o.eventIds)
      .select('id', 'status', 'seeker_user_id');
    const states = new Map<string, MatchState>();
    for (const row of matches) {
      const read = await readMatch(o.temporal, row.id);
      if (!read.state) {
        disagreements.push(`match ${row.id}: PostgreSQL ${row.status}, Temporal ${read.error ?? 'no workflow'}`);
        continue;
      }
      states.set(row.id, read.state);
      if (read.state.status !== row.status)
        disagreements.push(
          `match ${row.id}: PostgreSQL ${row.status}, Temporal ${read.state.status}${read.running ? ' (running)' : ''}`,
        );
    }
    const entries: Array<{ id: string; user_id: string; status: string; match_id: string | null }> = await o
      .knex('queue_entries')
      .whereIn('user_id', o.userIds)
      .select('id', 'user_id', 'status', 'match_id');
    for (const row of entries) {
      const read = await readQueueEntry(o.temporal, row.user_id);
      if (!read.state) {
        disagreements.push(`queue entry ${row.id}: PostgreSQL ${row.status}, Temporal ${read.error ?? 'no workflow'}`);
        continue;
      }
      if (read.state.queueId !== row.id) {
        disagreements.push(`queue entry ${row.id}: the seeker's workflow is entry ${read.state.queueId}`);
        continue;
      }
      if (read.state.status !== row.status || (read.state.matchId ?? null) !== (row.match_id ?? null)) {
        disagreements.push(
          `queue entry ${row.id}: PostgreSQL ${row.status}/${row.match_id ?? '-'}, Temporal ` +
            `${read.state.status}/${read.state.matchId ?? '-'}${read.running ? ' (running)' : ''}`,
        );
      }
    }
    if (!disagreements.length || Date.now() > deadline) {
      // Matched twice, by Temporal's own clock: two matches of one seeker whose live spans overlap.
      const bySeeker = new Map<string, MatchState[]>();
      for (const m of states.values()) bySeeker.set(m.seekerUserId, [...(bySeeker.get(m.seekerUserId) ?? []), m]);
      const matchedTwice: string[] = [];
      for (const [seeker, ms] of bySeeker) {
        ms.sort((a, b) => a.createdAtMs - b.createdAtMs);
        for (let i = 1; i < ms.length; i++) {
          const prev = ms.slice(0, i).find((p) => liveUntil(p) > ms[i].createdAtMs);
          if (prev)
            matchedTwice.push(
              `seeker ${seeker}: match ${ms[i].matchId} made at ` +
                `${new Date(ms[i].createdAtMs).toISOString()} while ${prev.matchId} (${prev.status}) held ` +
                `until ${Number.isFinite(liveUntil(prev)) ? new Date(liveUntil(prev)).toISOString() : 'now'}`,
            );
        }
      }
      return {
        disagreements,
        matchedTwice,
        matches: matches.length,
        entries: entries.length,
        settledMs: Date.now() - t0,
      };
    }
    await sleep(500);
  }
}
