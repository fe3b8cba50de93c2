import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import { detailLines, temporalName, type StartMetadata } from '../shared/contract';
/**
 * Contract of the events capability: the liveEvent workflow. Holds every message definition, id helper, type name, Input/Result type and vocabulary of the capability; no I/O (imports only @temporalio/workflow, @temporalio/common and other contracts), so workflows, activities, clients and the API all import it.
 *
 * Lifecycle: `draft` → goLive → `live` ⇄ (pause/resume) `paused`; `live`/`paused` → end → `ended`.
 * Replaying the transition the event is already in (goLive on live, pause on paused, resume on
 * live, end on ended) is accepted and changes nothing. Every other move is refused by the update
 * validators with one of the {@link LiveEventRefusal} codes.
 */
export const liveEventWorkflowId = (eventId: string): string => `live-event:${eventId}`;

/** Lifecycle of a live event (PostgreSQL `live_events.status`, the API's `status`, JobfairStatus). */
export const LIVE_EVENT_STATUSES = ['draft', 'live', 'paused', 'ended'] as const;
export type LiveEventStatus = (typeof LIVE_EVENT_STATUSES)[number];
/** The statuses in which an open-invite event is public (discovery lists it). */
export const PUBLIC_LIVE_EVENT_STATUSES = ['live', 'paused'] as const satisfies readonly LiveEventStatus[];
export type LiveEventTransition = 'goLive' | 'pause' | 'resume' | 'end';

/** ApplicationFailure types thrown by the update validators; the API answers 409 with the same code. */
export type LiveEventRefusal = 'EVENT_NOT_LIVE' | 'EVENT_ALREADY_ENDED' | 'ILLEGAL_TRANSITION';

/**
 * After the first drain pass the workflow waits this long and drains again, so a seeker whose
 * join raced the end (checked the event while it was still live, projected just after) is not
 * left waiting for an event that is over.
 */
export const DEFAULT_DRAIN_SETTLE_MS = 2_000;

export interface LiveEventInput {
  eventId: string;
  teamId: string;
  slug: string;
  /** The event's status in PostgreSQL when the run starts: `draft` normally; `live`/`paused` when a lost run is recovered. */
  status: LiveEventStatus;
  startedAtMs: number | null;
  endsAtMs: number | null;
  drainSettleMs: number;
}

export interface LiveEventState {
  eventId: string;
  teamId: string;
  slug: string;
  status: LiveEventStatus;
  startedAtMs: number | null;
  /** Planned end while live/paused; the actual end time once ended. */
  endsAtMs: number | null;
  endedAtMs: number | null;
  /** True once every waiting queue entry of the event has been told the event ended. */
  drained: boolean;
  /** Entries signalled by the drain passes (for operators). */
  drainedEntries: number;
}

export type LiveEventResult = LiveEventState;

export interface LiveEventTransitionInput {
  /** Who asked (recruiter user id); kept in the workflow's log, not in the projection. */
  requestedBy: string;
  /** The planned end as PostgreSQL has it now (goLive/resume refresh ends_at from it). */
  plannedEndAtMs?: number | null;
}

export interface LiveEventTransitionResult {
  state: LiveEventState;
  /** False when the event was already in the requested state (a replay): nothing happened. */
  changed: boolean;
}

export interface PlannedEndChangedSignalInput {
  plannedEndAtMs: number | null;
}

export type LiveEventPlan =
  { ok: true; target: LiveEventStatus | null } | { ok: false; code: LiveEventRefusal; message: string };

/**
 * The transition table, shared by the workflow's validators and the API (which answers for
 * events that have no running workflow: drafts never taken live, events whose run has closed).
 * `target: null` = a replay of the current state: accepted, nothing happens.
 */
export function planLiveEventTransition(
  transition: LiveEventTransition,
  from: LiveEventStatus,
  eventId: string,
): LiveEventPlan {
  const subject = `live event ${eventId}`;
  const ok = (target: LiveEventStatus | null): LiveEventPlan => ({ ok: true, target });
  const no = (code: LiveEventRefusal, message: string): LiveEventPlan => ({ ok: false, code, message });
  if (from === 'ended') {
    if (transition === 'end') return ok(null);
    return no(
      'EVENT_ALREADY_ENDED',
      `${subject} has ended; it cannot ${transition === 'goLive' ? 'go live' : transition} any more`,
    );
  }
  switch (transition) {
    case 'goLive':
      if (from === 'draft') return ok('live');
      if (from === 'live') return ok(null);
      return no('ILLEGAL_TRANSITION', `${subject} is paused; resume it instead of going live again`);
    case 'pause':
      if (from === 'live') return ok('paused');
      if (from === 'paused') return ok(null);
      return no('EVENT_NOT_LIVE', `${subject} is a draft; only a live event can be paused`);
    case 'resume':
      if (from === 'paused') return ok('live');
      if (from === 'live') return ok(null);
      return no('EVENT_NOT_LIVE', `${subject} is a draft; go live first`);
    case 'end':
      if (from === 'live' || from === 'paused') return ok('ended');
      return no('EVENT_NOT_LIVE', `${subject} is a draft; a draft cannot be ended`);
  }
}

// Messages of live-event.ts (the API and activities send them; the workflow handles them).
export const goLiveUpdate = defineUpdate<LiveEventTransitionResult, [LiveEventTransitionInput]>('goLive');
export const pauseUpdate = defineUpdate<LiveEventTransitionResult, [LiveEventTransitionInput]>('pause');
export const resumeUpdate = defineUpdate<LiveEventTransitionResult, [LiveEventTransitionInput]>('resume');
export const endUpdate = defineUpdate<LiveEventTransitionResult, [LiveEventTransitionInput]>('end');
/** The recruiter moved the planned end of a live/paused event: ends_at follows it. */
export const plannedEndChangedSignal = defineSignal<[PlannedEndChangedSignalInput]>('plannedEndChanged');
export const liveEventStateQuery = defineQuery<LiveEventState>('state');

/** Workflow type `liveEventWorkflow` (its export in workflows/index.ts): clients start it by this name, never by importing the implementation. */
export const LIVE_EVENT_WORKFLOW = 'liveEventWorkflow';
export type LiveEventWorkflow = (input: LiveEventInput) => Promise<LiveEventResult>;

/** What the Temporal UI shows for `live-event:<id>`: the company and the event by name (workflows/shared/summary.ts). */
export function liveEventStartMetadata(row: {
  id: string;
  slug: string;
  company_name: string;
  headline?: string | null;
  visibility?: string | null;
}): StartMetadata {
  const company = temporalName(row.company_name, row.slug);
  return {
    staticSummary: `Live event of ${company}${row.headline ? `: ${temporalName(row.headline, row.slug)}` : ''} (${row.slug})`,
    staticDetails: detailLines([
      ['Company', company],
      ['Event', `${row.slug}${row.visibility ? ` (${row.visibility.replace('_', ' ')})` : ''}`],
      ['Event id', row.id],
    ]),
  };
}
