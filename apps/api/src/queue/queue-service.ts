import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { WorkflowNotFoundError } from '@temporalio/common';
import { type QueueEntryRow } from '../../../../db/queue/queue-repository';
import { ConflictError, ForbiddenError, NotFoundError, OnboardingIncompleteError } from '../../../../lib/errors';
import type { Config } from '../../../../lib/config';
import { refusalConflict, updateRefusal } from '../../../../lib/update-refusal';
import { queueEntryWorkflowId, joinQueueUpdate, leaveQueueUpdate, QUEUE_ENTRY_ENDED, QUEUE_ENTRY_NOT_WAITING, QUEUE_ENTRY_OTHER_QUEUE, QUEUE_ENTRY_WORKFLOW, type JoinQueueUpdateResult, type QueueEntryWorkflow } from '../../../../workflows/queue/contract';
import { kickMatchmaker } from '../../../../workflows/matchmaking/client';
import type { ServiceDeps } from '../lib/service-deps';

/** Estimated wait: matches made for the same queue within this window… */
export const WAIT_ESTIMATE_WINDOW_MS = 30 * 60 * 1000;
/** …at least this many of them, else the estimate is null (too little data)… */
export const WAIT_ESTIMATE_MIN_MATCHES = 3;
/** …and the rate is taken over at least this span, so a burst does not read as an endless rate. */
export const WAIT_ESTIMATE_MIN_SPAN_MS = 60 * 1000;

/**
 * position ÷ observed rate: matches made for this queue (its event, or the "any event" queue) in
 * the last WAIT_ESTIMATE_WINDOW_MS, per second over max(time since the first of them,
 * WAIT_ESTIMATE_MIN_SPAN_MS). Null with fewer than WAIT_ESTIMATE_MIN_MATCHES: never a made-up number.
 */
export function estimateWaitSeconds(position: number, rate: { count: number; firstAtMs: number | null; nowMs: number }): number | null {
  if (rate.count < WAIT_ESTIMATE_MIN_MATCHES || rate.firstAtMs === null) return null;
  const spanSeconds = Math.max(rate.nowMs - rate.firstAtMs, WAIT_ESTIMATE_MIN_SPAN_MS) / 1000;
  return Math.round(position / (rate.count / spanSeconds));
}

export interface QueueEntryView {
  entry: QueueEntryRow;
  position: number | null;
  estimatedWaitSeconds: number | null;
}

export function createQueueService(deps: Pick<ServiceDeps, 'repos' | 'temporal' | 'config'>) {
  const accounts = deps.repos.accounts;
  const profiles = deps.repos.profiles;
  const events = deps.repos.events;
  const queue = deps.repos.queue;
  const matchmaking = deps.repos.matchmaking;

  const view = async (entry: QueueEntryRow): Promise<QueueEntryView> => {
    if (entry.status !== 'waiting') return { entry, position: null, estimatedWaitSeconds: null };
    const [position, rate] = await Promise.all([queue.positionOf(entry), matchmaking.recentMatchRate(entry.live_event_id, WAIT_ESTIMATE_WINDOW_MS)]);
    // Matched (or ended) between the two reads: answer with the entry as it is now.
    if (position === null) return { entry: (await queue.findById(entry.id)) ?? entry, position: null, estimatedWaitSeconds: null };
    return { entry, position, estimatedWaitSeconds: estimateWaitSeconds(position, rate) };
  };

  return {
    /**
     * Creates the caller's queue entry or resumes the one that exists: update-with-start on
     * `queue-entry:<userId>` with conflict policy USE_EXISTING (one active entry per seeker).
     */
    async join(input: { userId: string; eventRef: string | null; agentIdentity: string; viaAgent: boolean }): Promise<QueueEntryView & { created: boolean }> {
      const user = await accounts.findUserById(input.userId);
      if (!user) throw new NotFoundError('user', input.userId);
      if (user.role !== 'seeker') throw new ForbiddenError('Only job seekers can join the matchmaking queue', 'ROLE_NOT_ALLOWED');
      const profile = await profiles.findByUserId(user.id);
      if (!user.onboarding_completed_at || !profile) {
        throw new OnboardingIncompleteError(deps.config.publicBaseUrl, 'joining the queue');
      }
      let event: { id: string; slug: string } | null = null;
      if (input.eventRef) {
        const found = await events.findBySlugOrId(input.eventRef);
        if (!found || found.status !== 'live') throw new NotFoundError('live event', input.eventRef);
        event = { id: found.id, slug: found.slug };
      }
      let result: JoinQueueUpdateResult | undefined;
      for (let attempt = 0; ; attempt++) {
        const startOp = new WithStartWorkflowOperation<QueueEntryWorkflow>(QUEUE_ENTRY_WORKFLOW, {
          workflowId: queueEntryWorkflowId(user.id),
          taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
          workflowIdConflictPolicy: 'USE_EXISTING',
          staticSummary: `Queue entry of seeker ${user.id}${event ? ` for ${event.slug}` : ' (any event)'}`,
          args: [
            {
              queueId: randomUUID(),
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
            const [other] = (refusal.details ?? []) as Array<{ queueId: string; liveEventSlug: string | null }>;
            throw new ConflictError(
              'QUEUE_ENTRY_EXISTS',
              `You are already in the queue ${other?.liveEventSlug ? `for event ${other.liveEventSlug}` : 'for any event'}; leave it (POST /queue/leave) before joining another`,
              { queue_id: other?.queueId, live_event_slug: other?.liveEventSlug ?? null },
            );
          }
          throw err;
        }
      }
      // A new entry wakes the matchmaker (and starts it on the very first join).
      if (result.created) await kickMatchmaker(deps.temporal, deps.config, 'queue_join');
      const entry = await queue.findById(result.state.queueId);
      if (!entry) throw new Error(`queue entry ${result.state.queueId} was not projected`);
      return { ...(await view(entry)), created: result.created };
    },

    /**
     * Leaves the queue: the `leave` Update on the caller's entry (only while waiting; a matched
     * entry is declined through its match instead). No active entry → 404; not waiting → 409.
     */
    async leave(userId: string): Promise<QueueEntryView> {
      const latest = await queue.findLatestForUser(userId);
      if (!latest || (latest.status !== 'waiting' && latest.status !== 'matched')) throw new NotFoundError('active queue entry of the caller');
      try {
        await deps.temporal.workflow.getHandle(queueEntryWorkflowId(userId)).executeUpdate(leaveQueueUpdate, { args: [] });
      } catch (err) {
        const conflict = refusalConflict(err, [QUEUE_ENTRY_NOT_WAITING], () => ({ queue_id: latest.id }), () => 'Only a waiting entry can leave the queue; decline the match instead');
        if (conflict) throw conflict;
        if (err instanceof WorkflowNotFoundError) throw new NotFoundError('active queue entry of the caller');
        throw err;
      }
      const entry = await queue.findById(latest.id);
      return view(entry!);
    },

    /** Who waits in an event's queue, with their profiles (the recruiter console; the caller checked the event is the team's). */
    async listWaiting(eventId: string, limit: number) {
      const entries = await queue.listWaitingForEvent(eventId, limit);
      return Promise.all(
        entries.map(async (e) => ({ id: e.user_id, viaAgent: e.via_agent, agentIdentity: e.agent_identity, enteredAt: e.entered_at, profile: (await profiles.findByUserId(e.user_id)) ?? null })),
      );
    },

    async status(userId: string): Promise<QueueEntryView | null> {
      const entry = await queue.findLatestForUser(userId);
      return entry ? view(entry) : null;
    },
  };
}
export type QueueService = ReturnType<typeof createQueueService>;
