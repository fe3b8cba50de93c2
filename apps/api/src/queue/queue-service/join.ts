import { randomUUID } from 'node:crypto';
import { WithStartWorkflowOperation } from '@temporalio/client';
import type { QueueEntryRow } from '#db/queue/queue-repository';
import type { ProfileRow } from '#db/accounts/profiles-repository';
import type { LiveEventRow } from '#db/events/events-repository';
import { ConflictError, ForbiddenError, NotFoundError, OnboardingIncompleteError } from '#lib/errors';
import { updateRefusal } from '#lib/update-refusal';
import { operationUuid, type OperationKey } from '#lib/operation-ids';
import {
  queueEntryWorkflowId,
  joinQueueUpdate,
  QUEUE_ENTRY_ENDED,
  QUEUE_ENTRY_OTHER_QUEUE,
  QUEUE_ENTRY_WORKFLOW,
  queueEntryStartMetadata,
  type JoinQueueUpdateResult,
  type QueueEntryWorkflow,
} from '#workflows/queue/contract';
import { kickMatchmaker } from '#workflows/matchmaking/client';
import { pollAfterSeconds } from '#domain/matchmaking/wait-explanation';
import type { EntryRefusalDetails, QueueServiceContext, QueueServiceDeps } from './context';
import type { QueueEntryView } from './entry-view';
import { matchedConflict } from './conflicts';

export interface JoinInput {
  userId: string;
  eventRef: string | null;
  agentIdentity: string;
  viaAgent: boolean;
  operationKey?: OperationKey | null;
}

type JoinAnswer = QueueEntryView & { created: boolean };

/** The seeker joining and the live event they name, checked: a seeker, onboarded, the event live. */
interface Joiner {
  user: { id: string; display_name: string };
  profile: ProfileRow;
  found: LiveEventRow | undefined;
  event: { id: string; slug: string; company_name: string } | null;
}

async function findJoiner(deps: QueueServiceDeps, input: JoinInput): Promise<Joiner> {
  // The three reads are independent: one round trip of latency instead of three.
  const [user, profile, found] = await Promise.all([
    deps.repos.accounts.findUserById(input.userId),
    deps.repos.profiles.findByUserId(input.userId),
    input.eventRef ? deps.repos.events.findBySlugOrId(input.eventRef) : Promise.resolve(undefined),
  ]);
  if (!user) throw new NotFoundError('user', input.userId);
  if (user.role !== 'seeker')
    throw new ForbiddenError('Only job seekers can join the matchmaking queue', 'ROLE_NOT_ALLOWED');
  if (!user.onboarding_completed_at || !profile) {
    throw new OnboardingIncompleteError(deps.config.publicBaseUrl, 'joining the queue');
  }
  let event: Joiner['event'] = null;
  if (input.eventRef) {
    if (!found || found.status !== 'live') throw new NotFoundError('live event', input.eventRef);
    event = { id: found.id, slug: found.slug, company_name: found.company_name };
  }
  return { user, profile, found, event };
}

/** The first call's answer, replayed: the entry as that call accepted it (waiting, no match yet). */
const asAccepted = (entry: QueueEntryRow): JoinAnswer => ({
  entry: { ...entry, status: 'waiting', match_id: null },
  position: null,
  estimatedWaitSeconds: null,
  matchOutlook: null,
  pollAfterSeconds: pollAfterSeconds({ status: 'waiting', ended: false, explanation: null, estimate: null }),
  created: false,
});

/** A join refused because the seeker waits in another queue: the conflict that names it (and its match). */
function otherQueueConflict(publicBaseUrl: string, other: EntryRefusalDetails | undefined): ConflictError {
  // Matched in the other queue: the way out is that match (leaving declines it).
  if (other?.status === 'matched' && other.matchId && other.queueId)
    return matchedConflict(
      publicBaseUrl,
      other.queueId,
      other.matchId,
      other.liveEventSlug ?? null,
      'QUEUE_ENTRY_EXISTS',
    );
  return new ConflictError(
    'QUEUE_ENTRY_EXISTS',
    `You are already in the queue ` +
      `${other?.liveEventSlug ? `for event ${other.liveEventSlug}` : 'for any event'}; leave it ` +
      `(POST /queue/leave) before joining another`,
    { queue_id: other?.queueId, live_event_slug: other?.liveEventSlug ?? null },
  );
}

/**
 * Update-with-start on `queue-entry:<userId>` (conflict policy USE_EXISTING); an entry that ended
 * between the call and its handler is closing, so the join starts anew (up to five times).
 */
async function joinEntryWorkflow(
  deps: QueueServiceDeps,
  input: JoinInput,
  { user, profile, event }: Joiner,
  queueId: string,
): Promise<JoinQueueUpdateResult> {
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
      return await deps.temporal.workflow.executeUpdateWithStart(joinQueueUpdate, {
        args: [{ agentIdentity: input.agentIdentity, viaAgent: input.viaAgent, liveEventId: event?.id ?? null }],
        startWorkflowOperation: startOp,
      });
    } catch (err) {
      // The existing entry ended between our call and its handler: the run is closing; start anew.
      const refusal = updateRefusal(err);
      if (refusal?.type === QUEUE_ENTRY_ENDED && attempt < 5) {
        await new Promise((r) => setTimeout(r, 50 * (attempt + 1)));
        continue;
      }
      if (refusal?.type === QUEUE_ENTRY_OTHER_QUEUE) {
        const [other] = (refusal.details ?? []) as EntryRefusalDetails[];
        throw otherQueueConflict(deps.config.publicBaseUrl, other);
      }
      throw err;
    }
  }
}

/**
 * Creates the caller's queue entry or resumes the one that exists: update-with-start on
 * `queue-entry:<userId>` with conflict policy USE_EXISTING (one active entry per seeker).
 *
 * With an Idempotency-Key (`operationKey`) the new entry's id derives from it (decision 0160):
 * a keyed retry whose first call's answer was lost finds the entry that call created and answers
 * it as accepted (200, the same queue id), whatever happened to it since — matched, finished,
 * left — instead of 409 QUEUE_ENTRY_MATCHED or a second entry (decision 0200).
 */
export function createJoin({ deps, view }: QueueServiceContext) {
  const queue = deps.repos.queue;
  return async (input: JoinInput): Promise<JoinAnswer> => {
    const joiner = await findJoiner(deps, input);
    const { user, profile, found } = joiner;
    const queueId = input.operationKey ? operationUuid(input.operationKey, 'queue-entry') : randomUUID();
    if (input.operationKey) {
      // The first call with this key created the entry and it has moved on (matched, finished,
      // left, expired): its run may be closed, so an update-with-start would start a second entry.
      const prior = await queue.findById(queueId);
      if (prior && prior.user_id === user.id && prior.status !== 'waiting') return asAccepted(prior);
    }
    const result = await joinEntryWorkflow(deps, input, joiner, queueId);
    // A matched entry cannot be joined again: the answer names its match (readable: its row was
    // written with the entry's `matched`) instead of a QueueJoinResponse status the spec does not
    // have (decision 0121).
    if (result.state.status === 'matched' && result.state.matchId) {
      // This key's own entry, matched before the retry: the first answer, not a conflict.
      if (input.operationKey && result.state.queueId === queueId) {
        const entry = await queue.findById(queueId);
        if (entry) return asAccepted(entry);
      }
      throw matchedConflict(
        deps.config.publicBaseUrl,
        result.state.queueId,
        result.state.matchId,
        result.state.liveEventSlug,
      );
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
  };
}
