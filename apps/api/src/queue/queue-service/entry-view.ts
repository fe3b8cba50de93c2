import type { QueueEntryRow, QueueRepository } from '#db/queue/queue-repository';
import type { EntryReading } from '#db/queue/queue-status-repository';
import type { ProfileRow } from '#db/accounts/profiles-repository';
import type { LiveEventRow } from '#db/events/events-repository';
import { pollAfterSeconds, type WaitBlocker } from '#domain/matchmaking/wait-explanation';
import type { createWaitService } from '../../matchmaking/wait-service';

/** Why the entry is (not yet) matched, so a seeker learns when waiting cannot help (decision 0124). */
export const MATCH_OUTLOOK_STATES = ['matchable', 'no_eligible_job', 'event_paused', 'unknown'] as const;
export type MatchOutlookState = (typeof MATCH_OUTLOOK_STATES)[number];
export interface MatchOutlook {
  state: MatchOutlookState;
  reason: string;
  /** Open jobs the seeker can still be offered, now or once the floor relaxes (null when not counted). */
  eligibleJobs: number | null;
  /** What stops an offer now (null: the next round should offer one). */
  blockedBy: WaitBlocker | null;
  /** Of the eligible jobs, those passing the floor of the entry's current bracket. */
  passingJobs: number | null;
  /** When the floor next relaxes for this entry (null: it no longer does). */
  floorRelaxesAt: Date | null;
}

/** Rows already read by the caller (they are read again when absent or for another entry). */
export interface Known {
  profile?: ProfileRow | null;
  event?: LiveEventRow;
}

/** The entry with what its waiting answer needs, read in one statement (the status read). */
export type Reading = Omit<EntryReading, 'entry'>;

export interface QueueEntryView {
  entry: QueueEntryRow;
  position: number | null;
  estimatedWaitSeconds: number | null;
  /** The honest range behind the estimate, with its reason (null when not waiting). */
  estimatedWait?: { minSeconds: number | null; maxSeconds: number | null; reason: string } | null;
  /** Null when the entry is not waiting. */
  matchOutlook: MatchOutlook | null;
  /** When a poller should read the status again (seconds); null once the entry has ended. */
  pollAfterSeconds: number | null;
}

export type EntryView = (entry: QueueEntryRow, known?: Known, read?: Reading) => Promise<QueueEntryView>;

/** An entry that is not waiting: no place, outlook or estimate; the poll hint from its status alone. */
const notWaiting = (entry: QueueEntryRow): QueueEntryView => ({
  entry,
  position: null,
  estimatedWaitSeconds: null,
  matchOutlook: null,
  pollAfterSeconds: pollAfterSeconds({
    status: entry.status,
    ended: entry.ended_at !== null,
    explanation: null,
    estimate: null,
  }),
});

/**
 * A waiting entry's outlook and estimate: the wait explanation (the matchmaker's own rules,
 * matchmaking/wait-service.ts) in the queue status's words.
 */
export function createEntryView(queue: QueueRepository, wait: ReturnType<typeof createWaitService>): EntryView {
  return async (entry, known = {}, read) => {
    if (entry.status !== 'waiting') return notWaiting(entry);
    const position = read ? read.position : await queue.positionOf(entry);
    // Matched (or ended) between the reads: answer with the entry as it is now.
    if (position === null) return notWaiting((await queue.findById(entry.id)) ?? entry);
    const { explanation: x, estimate } = await wait.explain(
      entry,
      read
        ? {
            ...known,
            position,
            profile: read.profile,
            offering: read.offering,
            triedJobIds: read.triedJobIds,
            blockedJobIds: read.blockedJobIds,
            ...(read.event ? { event: read.event } : {}),
            jobsStamp: read.jobsStamp,
            matchesStamp: read.matchesStamp,
          }
        : { ...known, position },
    );
    return {
      entry,
      position,
      estimatedWaitSeconds: estimate.seconds,
      estimatedWait: { minSeconds: estimate.minSeconds, maxSeconds: estimate.maxSeconds, reason: estimate.reason },
      matchOutlook: {
        state: x.outlook,
        reason: x.reason,
        eligibleJobs: x.outlook === 'event_paused' || x.outlook === 'unknown' ? null : x.eligibleJobs,
        blockedBy: x.blocker,
        passingJobs: x.outlook === 'event_paused' || x.outlook === 'unknown' ? null : x.passingJobs,
        floorRelaxesAt: x.nextRelaxAtMs === null ? null : new Date(x.nextRelaxAtMs),
      },
      pollAfterSeconds: pollAfterSeconds({ status: 'waiting', ended: false, explanation: x, estimate }),
    };
  };
}
