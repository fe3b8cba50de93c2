import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { type QueueEntryRow } from '#db/queue/queue-repository';
import type { EntryReading } from '#db/queue/queue-status-repository';
import type { ProfileRow } from '#db/accounts/profiles-repository';
import type { LiveEventRow } from '#db/events/events-repository';
import { ConflictError, ForbiddenError, NotFoundError, OnboardingIncompleteError } from '#lib/errors';
import type { Config } from '#lib/config';
import { updateRefusal } from '#lib/update-refusal';
import { MATCH_NOT_DECLINABLE } from '#workflows/matches/contract';
import {
  queueEntryWorkflowId,
  joinQueueUpdate,
  leaveQueueUpdate,
  QUEUE_ENTRY_ENDED,
  QUEUE_ENTRY_NOT_WAITING,
  QUEUE_ENTRY_OTHER_QUEUE,
  QUEUE_ENTRY_WORKFLOW,
  queueEntryStartMetadata,
  type JoinQueueUpdateResult,
  type QueueEntryWorkflow,
} from '#workflows/queue/contract';
import { kickMatchmaker } from '#workflows/matchmaking/client';
import type { ServiceDeps } from '../plugins/service-deps';
import { operationUuid, type OperationKey } from '#lib/operation-ids';
import {
  pollAfterSeconds,
  rateWaitSeconds,
  WAIT_ESTIMATE_MIN_MATCHES,
  WAIT_ESTIMATE_MIN_SPAN_MS,
  type WaitBlocker,
} from '#domain/matchmaking/wait-explanation';
import { createWaitService, WAIT_RATE_WINDOW_MS } from '../matchmaking/wait-service';
import type { MatchesService } from '../matches/matches-service';
import { matchDetailsUrl } from '../plugins/join-urls';

/** Estimated wait: matches made for the same queue within this window… */
export const WAIT_ESTIMATE_WINDOW_MS = WAIT_RATE_WINDOW_MS;
export { WAIT_ESTIMATE_MIN_MATCHES, WAIT_ESTIMATE_MIN_SPAN_MS };

/**
 * position ÷ observed rate over max(time since the first match of the window,
 * WAIT_ESTIMATE_MIN_SPAN_MS); null with fewer than WAIT_ESTIMATE_MIN_MATCHES: never a made-up
 * number. The queue status uses it only where the wait explanation says capacity is what blocks.
 */
export const estimateWaitSeconds = rateWaitSeconds;

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
interface Known {
  profile?: ProfileRow | null;
  event?: LiveEventRow;
}

/** The entry with what its waiting answer needs, read in one statement (the status read). */
type Reading = Omit<EntryReading, 'entry'>;

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

/** The reason recorded on a match the seeker declined by leaving the queue (`POST /queue/leave`). */
export const LEFT_QUEUE_DECLINE_REASON = 'The candidate left the queue';
/** How long `leave` keeps trying while the entry's match closes under it (a decline or expiry racing the leave). */
const LEAVE_DEADLINE_MS = 10_000;

/** What the caller's entry refusal details carry (queue-entry.ts validators). */
interface EntryRefusalDetails {
  queueId?: string;
  liveEventSlug?: string | null;
  status?: string;
  matchId?: string | null;
}

export function createQueueService(
  deps: Pick<ServiceDeps, 'repos' | 'temporal' | 'config'> & { matches: Pick<MatchesService, 'decline'> },
) {
  const accounts = deps.repos.accounts;
  const profiles = deps.repos.profiles;
  const events = deps.repos.events;
  const queue = deps.repos.queue;
  const queueStatus = deps.repos.queueStatus;
  // Every seeker of an event polls the same open jobs and match rate: the status read reuses them
  // while the stamps read with the entry say they have not changed (wait-service.ts).
  const wait = createWaitService(deps, {
    rateCacheMs: deps.config.QUEUE_STATUS_RATE_CACHE_MS,
    cacheMax: deps.config.QUEUE_STATUS_CACHE_MAX,
  });

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
  const view = async (entry: QueueEntryRow, known: Known = {}, read?: Reading): Promise<QueueEntryView> => {
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

  /**
   * A join while the entry is matched, to this queue or another: the answer names the match, where
   * the person answers it, and the way out that works (leaving declines it).
   */
  const matchedConflict = (
    queueId: string,
    matchId: string,
    liveEventSlug: string | null,
    // Another event's join keeps its v1 code (QUEUE_ENTRY_EXISTS); the details name the match too.
    code: 'QUEUE_ENTRY_MATCHED' | 'QUEUE_ENTRY_EXISTS' = 'QUEUE_ENTRY_MATCHED',
  ) => {
    const detailsUrl = matchDetailsUrl(deps.config.publicBaseUrl, matchId);
    return new ConflictError(
      code,
      `Your queue entry ${liveEventSlug ? `for event ${liveEventSlug}` : 'for any event'} is matched (match ` +
        `${matchId}). The person accepts or declines it at ${detailsUrl} (an agent may decline: POST ` +
        `/api/v1/matches/${matchId}/decline). To leave the queue instead, POST /api/v1/queue/leave: it ` +
        `declines this match and ends the entry; then join again`,
      { queue_id: queueId, match_id: matchId, details_url: detailsUrl, live_event_slug: liveEventSlug },
    );
  };

  /** Leaving after the match was accepted: nothing to leave, the interview is on. */
  const acceptedConflict = (queueId: string, matchId: string) => {
    const detailsUrl = matchDetailsUrl(deps.config.publicBaseUrl, matchId);
    return new ConflictError(
      'QUEUE_ENTRY_MATCH_ACCEPTED',
      `Your match ${matchId} was accepted by both sides: your queue entry ended with it and the ` +
        `interview is on, so there is no queue to leave. The person goes to the interview (or ends it) ` +
        `at ${detailsUrl}; after it, join a queue again`,
      { queue_id: queueId, match_id: matchId, details_url: detailsUrl, match_status: 'accepted' },
    );
  };

  return {
    /**
     * Creates the caller's queue entry or resumes the one that exists: update-with-start on
     * `queue-entry:<userId>` with conflict policy USE_EXISTING (one active entry per seeker).
     *
     * With an Idempotency-Key (`operationKey`) the new entry's id derives from it (decision 0160):
     * a keyed retry whose first call's answer was lost finds the entry that call created and answers
     * it as accepted (200, the same queue id), whatever happened to it since — matched, finished,
     * left — instead of 409 QUEUE_ENTRY_MATCHED or a second entry (decision 0200).
     */
    async join(input: {
      userId: string;
      eventRef: string | null;
      agentIdentity: string;
      viaAgent: boolean;
      operationKey?: OperationKey | null;
    }): Promise<QueueEntryView & { created: boolean }> {
      // The three reads are independent: one round trip of latency instead of three.
      const [user, profile, found] = await Promise.all([
        accounts.findUserById(input.userId),
        profiles.findByUserId(input.userId),
        input.eventRef ? events.findBySlugOrId(input.eventRef) : Promise.resolve(undefined),
      ]);
      if (!user) throw new NotFoundError('user', input.userId);
      if (user.role !== 'seeker')
        throw new ForbiddenError('Only job seekers can join the matchmaking queue', 'ROLE_NOT_ALLOWED');
      if (!user.onboarding_completed_at || !profile) {
        throw new OnboardingIncompleteError(deps.config.publicBaseUrl, 'joining the queue');
      }
      let event: { id: string; slug: string; company_name: string } | null = null;
      if (input.eventRef) {
        if (!found || found.status !== 'live') throw new NotFoundError('live event', input.eventRef);
        event = { id: found.id, slug: found.slug, company_name: found.company_name };
      }
      const queueId = input.operationKey ? operationUuid(input.operationKey, 'queue-entry') : randomUUID();
      /** The first call's answer, replayed: the entry as that call accepted it (waiting, no match yet). */
      const asAccepted = (entry: QueueEntryRow): QueueEntryView & { created: boolean } => ({
        entry: { ...entry, status: 'waiting', match_id: null },
        position: null,
        estimatedWaitSeconds: null,
        matchOutlook: null,
        pollAfterSeconds: pollAfterSeconds({ status: 'waiting', ended: false, explanation: null, estimate: null }),
        created: false,
      });
      if (input.operationKey) {
        // The first call with this key created the entry and it has moved on (matched, finished,
        // left, expired): its run may be closed, so an update-with-start would start a second entry.
        const prior = await queue.findById(queueId);
        if (prior && prior.user_id === user.id && prior.status !== 'waiting') return asAccepted(prior);
      }
      let result: JoinQueueUpdateResult | undefined;
      for (let attempt = 0; ; attempt++) {
        const startOp = new WithStartWorkflowOperation<QueueEntryWorkflow>(QUEUE_ENTRY_WORKFLOW, {
          workflowId: queueEntryWorkflowId(user.id),
          taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
          workflowIdConflictPolicy: 'USE_EXISTING',
          ...queueEntryStartMetadata({
            seekerName: profile.full_name || user.display_name,
            companyName: event?.company_name ?? null,
            liveEventSlug: event?.slug ?? null,
            agentIdentity: input.agentIdentity,
            viaAgent: input.viaAgent,
            userId: user.id,
          }),
          args: [
            {
              queueId,
              userId: user.id,
              liveEventId: event?.id ?? null,
              liveEventSlug: event?.slug ?? null,
              agentIdentity: input.agentIdentity,
              viaAgent: input.viaAgent,
              enteredAtMs: Date.now(),
              ttlMs: deps.config.QUEUE_ENTRY_TTL_MS,
            },
          ],
        });
        try {
          result = await deps.temporal.workflow.executeUpdateWithStart(joinQueueUpdate, {
            args: [{ agentIdentity: input.agentIdentity, viaAgent: input.viaAgent, liveEventId: event?.id ?? null }],
            startWorkflowOperation: startOp,
          });
          break;
        } catch (err) {
          // The existing entry ended between our call and its handler: the run is closing; start anew.
          const refusal = updateRefusal(err);
          if (refusal?.type === QUEUE_ENTRY_ENDED && attempt < 5) {
            await new Promise((r) => setTimeout(r, 50 * (attempt + 1)));
            continue;
          }
          if (refusal?.type === QUEUE_ENTRY_OTHER_QUEUE) {
            const [other] = (refusal.details ?? []) as EntryRefusalDetails[];
            // Matched in the other queue: the way out is that match (leaving declines it).
            if (other?.status === 'matched' && other.matchId && other.queueId)
              throw matchedConflict(other.queueId, other.matchId, other.liveEventSlug ?? null, 'QUEUE_ENTRY_EXISTS');
            throw new ConflictError(
              'QUEUE_ENTRY_EXISTS',
              `You are already in the queue ` +
                `${other?.liveEventSlug ? `for event ${other.liveEventSlug}` : 'for any event'}; leave it ` +
                `(POST /queue/leave) before joining another`,
              { queue_id: other?.queueId, live_event_slug: other?.liveEventSlug ?? null },
            );
          }
          throw err;
        }
      }
      // A matched entry cannot be joined again: the answer names its match (readable: its row was
      // written with the entry's `matched`) instead of a QueueJoinResponse status the spec does not
      // have (decision 0121).
      if (result.state.status === 'matched' && result.state.matchId) {
        // This key's own entry, matched before the retry: the first answer, not a conflict.
        if (input.operationKey && result.state.queueId === queueId) {
          const entry = await queue.findById(queueId);
          if (entry) return asAccepted(entry);
        }
        throw matchedConflict(result.state.queueId, result.state.matchId, result.state.liveEventSlug);
      }
      // A new entry wakes the matchmaker (and starts it on the very first join). The answer is read
      // meanwhile: the kick is a Temporal round trip the reads need not wait for; a
      // failed kick still fails the join, as before.
      const answer = async () => {
        const entry = await queue.findById(result.state.queueId);
        if (!entry) throw new Error(`queue entry ${result.state.queueId} was not projected`);
        return view(entry, { profile, event: found });
      };
      const [v] = await Promise.all([
        answer(),
        result.created ? kickMatchmaker(deps.temporal, deps.config, 'queue_join') : undefined,
      ]);
      return { ...v, created: result.created };
    },

    /**
     * Leaves the queue, whatever the entry's state: a waiting entry by the `leave` Update; a matched
     * one by declining its pending match as the seeker with `leaveQueue` (reason code `left_queue`):
     * the match tells the entry to end `left`, so it is never waiting in between and no round can
     * offer it another job. Answers once the entry reads `left`. A match that closes under the call
     * (the recruiter declined, it expired) sends the entry back to waiting, and the loop leaves from
     * there. No active entry → 404; a match already accepted → 409 QUEUE_ENTRY_MATCH_ACCEPTED.
     */
    async leave(userId: string): Promise<QueueEntryView> {
      const deadline = Date.now() + LEAVE_DEADLINE_MS;
      for (let attempt = 0; ; attempt++) {
        const latest = await queue.findLatestForUser(userId);
        if (!latest || (latest.status !== 'waiting' && latest.status !== 'matched'))
          throw new NotFoundError('active queue entry of the caller');
        if (latest.status === 'matched' && latest.match_id) {
          const match = await deps.repos.matches.findById(latest.match_id);
          if (match?.status === 'accepted') throw acceptedConflict(latest.id, match.id);
          // The interview is over (or the entry finished): nothing active to leave.
          if (match?.status === 'completed' || latest.ended_at)
            throw new NotFoundError('active queue entry of the caller');
        }
        let matchId: string | null = null;
        try {
          await deps.temporal.workflow
            .getHandle(queueEntryWorkflowId(userId))
            .executeUpdate(leaveQueueUpdate, { args: [] });
          return view((await queue.findById(latest.id))!);
        } catch (err) {
          const refusal = updateRefusal(err, [QUEUE_ENTRY_NOT_WAITING]);
          if (!refusal) {
            if (err instanceof WorkflowNotFoundError) throw new NotFoundError('active queue entry of the caller');
            throw err;
          }
          const [d] = (refusal.details ?? []) as EntryRefusalDetails[];
          matchId = d?.status === 'matched' ? (d.matchId ?? null) : null;
        }
        if (matchId) {
          try {
            const declined = await deps.matches.decline({
              userId,
              matchId,
              reason: LEFT_QUEUE_DECLINE_REASON,
              reasonCode: 'left_queue',
              leaveQueue: true,
            });
            const entry = (await queue.findById(latest.id))!;
            if (declined.entryLeft || entry.status === 'left') return view(entry);
          } catch (err) {
            if (!(err instanceof ConflictError && err.code === MATCH_NOT_DECLINABLE)) throw err;
            const status = (err.details as { status?: string } | undefined)?.status;
            if (status === 'accepted' || status === 'completed') throw acceptedConflict(latest.id, matchId);
            // Declined by the recruiter or expired meanwhile: the entry is on its way back to waiting.
          }
        }
        if (Date.now() > deadline) {
          const now = await queue.findById(latest.id);
          throw new ConflictError(
            QUEUE_ENTRY_NOT_WAITING,
            `Queue entry ${latest.id} is ${now?.status ?? latest.status}${now?.match_id ? ` (match ${now.match_id})` : ''} ` +
              `and could not be left just now; try again`,
            { queue_id: latest.id, status: now?.status ?? latest.status, match_id: now?.match_id ?? null },
          );
        }
        await new Promise((r) => setTimeout(r, Math.min(50 * (attempt + 1), 250)));
      }
    },

    /** Who waits in an event's queue, with their profiles (the recruiter console; the caller checked the event is the team's). */
    async listWaiting(eventId: string, limit: number) {
      const entries = await queue.listWaitingForEvent(eventId, limit);
      return Promise.all(
        entries.map(async (e) => ({
          id: e.user_id,
          viaAgent: e.via_agent,
          agentIdentity: e.agent_identity,
          enteredAt: e.entered_at,
          profile: (await profiles.findByUserId(e.user_id)) ?? null,
        })),
      );
    },

    /**
     * The caller's latest entry and, while it waits, its position, outlook and estimate (the REST
     * status, the MCP tool and the web queue page). The seeker's own rows, event and the queue's
     * stamps come in one statement (`readLatest`), the room in a second; the open jobs and the match
     * rate are reused while the stamps say they have not changed (decision 0269).
     */
    async status(userId: string): Promise<QueueEntryView | null> {
      const read = await queueStatus.readLatest(userId);
      if (!read) return null;
      const { entry, ...rest } = read;
      return view(entry, {}, rest);
    },
  };
}
export type QueueService = ReturnType<typeof createQueueService>;
