import type { Knex } from 'knex';
import { WithStartWorkflowOperation, type Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/common';
import {
  isUniqueViolation,
  type EventVisibility,
  type LiveEventDescription,
  type LiveEventStatus,
  type LiveEventWithStats,
} from '#db/events/events-repository';
import { type JobWithEvent } from '#db/events/jobs-repository';
import {
  AppError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  PlanLimitReachedError,
  ValidationError,
} from '#lib/errors';
import { operationUuid, type OperationKey } from '#lib/operation-ids';
import { maxLiveEventsOf } from '#workflows/billing/contract';
import type { Config } from '#lib/config';
import { refusalConflict, updateRefusal } from '#lib/update-refusal';
import type { AuthContext } from '../plugins/auth';
import type { Page, Paginator } from '../plugins/pagination';
import type { PublicCache } from '../plugins/public-cache';
import {
  DEFAULT_DRAIN_SETTLE_MS,
  liveEventWorkflowId,
  planLiveEventTransition,
  endUpdate,
  goLiveUpdate,
  LIVE_EVENT_WORKFLOW,
  liveEventStartMetadata,
  pauseUpdate,
  plannedEndChangedSignal,
  resumeUpdate,
  type LiveEventRefusal,
  type LiveEventTransition,
  type LiveEventTransitionInput,
  type LiveEventWorkflow,
} from '#workflows/events/contract';
import { JobfairEntity, JobfairEventSlug, JobfairStatus, JobfairTeamId } from '#workflows/shared/contract';
import { kickMatchmaker } from '#workflows/matchmaking/client';
import type { ServiceDeps } from '../plugins/service-deps';

/** Recruiter routes: the caller must be a recruiter in a team; the team scopes everything they see. */
export function recruiterTeamOf(auth: AuthContext): string {
  if (auth.role !== 'recruiter' || !auth.teamId) {
    throw new ForbiddenError('This route is for recruiters who belong to a team', 'RECRUITER_TEAM_REQUIRED');
  }
  return auth.teamId;
}

/** How many events GET /live-events/live-now returns at most (the paginated GET /live-events has them all). */
export const LIVE_NOW_LIMIT = 200;
/** How many open jobs GET /events/{slug} lists at most. */
export const EVENT_DETAIL_JOBS_LIMIT = 200;

const REFUSALS: ReadonlySet<string> = new Set<LiveEventRefusal>([
  'EVENT_NOT_LIVE',
  'EVENT_ALREADY_ENDED',
  'ILLEGAL_TRANSITION',
]);
const UPDATES = { goLive: goLiveUpdate, pause: pauseUpdate, resume: resumeUpdate, end: endUpdate } as const;

export interface CreateEventInput {
  slug: string;
  company_name?: string;
  headline?: string | null;
  description?: string | null;
  accent_color?: string;
  logo_url?: string | null;
  visibility?: EventVisibility;
  planned_start_at?: string | null;
  planned_end_at?: string | null;
  interview_slots?: number;
}
export type UpdateEventInput = Partial<CreateEventInput>;

const toDate = (s: string | null | undefined) => (s === undefined ? undefined : s === null ? null : new Date(s));

function checkPlannedWindow(start: Date | null | undefined, end: Date | null | undefined) {
  if (start && end && end.getTime() <= start.getTime()) {
    throw new ValidationError('planned_end_at must be after planned_start_at', [
      { path: 'body.planned_end_at', message: 'must be after planned_start_at' },
    ]);
  }
}

export function createEventsService(
  deps: Pick<ServiceDeps, 'knex' | 'repos' | 'temporal' | 'config' | 'paginator' | 'cache'>,
) {
  const events = deps.repos.events;
  const jobs = deps.repos.jobs;
  const settings = deps.repos.settings;
  const accounts = deps.repos.accounts;

  const mustFind = async (teamId: string, eventId: string): Promise<LiveEventWithStats> => {
    const row = await events.findForTeam(teamId, eventId);
    if (!row) throw new NotFoundError('live event', eventId);
    return row;
  };
  const slugTaken = (slug: string) =>
    new ConflictError('SLUG_TAKEN', `The slug ${slug} is already used by another event`, { slug });
  const refusal = (
    code: LiveEventRefusal | string,
    message: string,
    row: { id: string; status: LiveEventStatus },
    transition: LiveEventTransition,
  ) => new ConflictError(code, message, { event_id: row.id, status: row.status, transition });

  /** Update-with-start on `live-event:<id>`: starts the run from the table's state if none is running. */
  const updateWithStart = async (
    row: LiveEventWithStats,
    transition: LiveEventTransition,
    input: LiveEventTransitionInput,
  ) => {
    const startOp = new WithStartWorkflowOperation<LiveEventWorkflow>(LIVE_EVENT_WORKFLOW, {
      workflowId: liveEventWorkflowId(row.id),
      taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
      workflowIdConflictPolicy: 'USE_EXISTING',
      // An ended event's completed run is never replaced; a failed or terminated one may be (recovery).
      workflowIdReusePolicy: 'ALLOW_DUPLICATE_FAILED_ONLY',
      ...liveEventStartMetadata(row),
      typedSearchAttributes: [
        { key: JobfairEntity, value: 'live_event' },
        { key: JobfairStatus, value: row.status },
        { key: JobfairEventSlug, value: row.slug },
        { key: JobfairTeamId, value: row.team_id },
      ],
      args: [
        {
          eventId: row.id,
          teamId: row.team_id,
          slug: row.slug,
          status: row.status,
          startedAtMs: row.started_at?.getTime() ?? null,
          endsAtMs: row.ends_at?.getTime() ?? null,
          drainSettleMs: DEFAULT_DRAIN_SETTLE_MS,
        },
      ],
    });
    return deps.temporal.workflow.executeUpdateWithStart(UPDATES[transition], {
      args: [input],
      startWorkflowOperation: startOp,
    });
  };

  /** Answers from the table when no run can take the update (never went live, or its run has closed). */
  const withoutRun = async (
    teamId: string,
    eventId: string,
    transition: LiveEventTransition,
    input: LiveEventTransitionInput,
  ): Promise<void> => {
    const fresh = await mustFind(teamId, eventId);
    const p = planLiveEventTransition(transition, fresh.status, fresh.id);
    if (!p.ok) throw refusal(p.code, p.message, fresh, transition);
    if (p.target === null) return; // a replay of the state the event is in
    // Live or paused in the table but no running workflow (an operator terminated it): recover.
    await updateWithStart(fresh, transition, input);
  };

  return {
    async create(
      teamId: string,
      userId: string,
      input: CreateEventInput,
      op: OperationKey | null = null,
    ): Promise<LiveEventWithStats> {
      // A keyed retry after a crash: the event this key created is the answer (decision 0160).
      const id = operationUuid(op, 'live-event');
      if (op) {
        const done = await events.findForTeam(teamId, id);
        if (done) return done;
      }
      const start = toDate(input.planned_start_at);
      const end = toDate(input.planned_end_at);
      checkPlannedWindow(start, end);
      const [teamSettings, membership] = await Promise.all([
        settings.findTeamSettings(teamId),
        accounts.findMembership(userId),
      ]);
      try {
        const row = await events.insert({
          id,
          team_id: teamId,
          created_by: userId,
          slug: input.slug,
          company_name: input.company_name ?? membership?.team_name ?? 'Company',
          headline: input.headline ?? null,
          description: input.description ?? null,
          ...(input.accent_color ? { accent_color: input.accent_color.toLowerCase() } : {}),
          logo_url: input.logo_url ?? null,
          visibility: input.visibility ?? teamSettings.default_event_visibility,
          planned_start_at: start ?? null,
          planned_end_at: end ?? null,
          ...(input.interview_slots !== undefined ? { interview_slots: input.interview_slots } : {}),
        });
        return (await events.findWithStats(row.id))!;
      } catch (err) {
        if (isUniqueViolation(err)) throw slugTaken(input.slug);
        throw err;
      }
    },

    async get(teamId: string, eventId: string): Promise<LiveEventWithStats> {
      return mustFind(teamId, eventId);
    },

    async list(
      teamId: string,
      q: { limit: number; cursor?: string; status?: LiveEventStatus },
    ): Promise<Page<LiveEventWithStats>> {
      const filter = { status: q.status };
      return deps.paginator.page<LiveEventWithStats>(events.teamEventsQuery(teamId, filter), {
        limit: q.limit,
        cursor: q.cursor,
        filter: { team: teamId, ...filter },
        table: 'e',
      });
    },

    /**
     * Descriptive fields only; the status moves through the transitions. An ended event is
     * read-only; the slug is fixed once the event has gone live (links and search attributes carry it).
     */
    async update(teamId: string, eventId: string, patch: UpdateEventInput): Promise<LiveEventWithStats> {
      const row = await mustFind(teamId, eventId);
      if (row.status === 'ended')
        throw new ConflictError('EVENT_ALREADY_ENDED', `live event ${row.id} has ended and can no longer be edited`, {
          event_id: row.id,
          status: row.status,
        });
      if (patch.slug !== undefined && patch.slug !== row.slug && row.status !== 'draft') {
        throw new ConflictError(
          'EVENT_SLUG_LOCKED',
          `The slug of live event ${row.id} is fixed once it has gone live`,
          { event_id: row.id, status: row.status },
        );
      }
      const start = patch.planned_start_at !== undefined ? toDate(patch.planned_start_at) : row.planned_start_at;
      const end = patch.planned_end_at !== undefined ? toDate(patch.planned_end_at) : row.planned_end_at;
      checkPlannedWindow(start, end);
      const fields: LiveEventDescription = {};
      for (const k of [
        'slug',
        'company_name',
        'headline',
        'description',
        'logo_url',
        'visibility',
        'interview_slots',
      ] as const) {
        if (patch[k] !== undefined) (fields as Record<string, unknown>)[k] = patch[k];
      }
      if (patch.accent_color !== undefined) fields.accent_color = patch.accent_color.toLowerCase();
      if (patch.planned_start_at !== undefined) fields.planned_start_at = start ?? null;
      if (patch.planned_end_at !== undefined) fields.planned_end_at = end ?? null;
      try {
        await events.updateDescription(teamId, row.id, fields);
      } catch (err) {
        if (isUniqueViolation(err)) throw slugTaken(patch.slug!);
        throw err;
      }
      if (patch.planned_end_at !== undefined && (row.status === 'live' || row.status === 'paused')) {
        // ends_at is a lifecycle column: the workflow moves it.
        try {
          await deps.temporal.workflow
            .getHandle(liveEventWorkflowId(row.id))
            .signal(plannedEndChangedSignal, { plannedEndAtMs: end?.getTime() ?? null });
        } catch (err) {
          if (!(err instanceof WorkflowNotFoundError)) throw err;
        }
      }
      if (patch.interview_slots !== undefined && patch.interview_slots > row.interview_slots && row.status === 'live') {
        // More slots: seekers may be waiting for exactly this room, so the matchmaker runs a round
        // at once, as when a match frees a slot (decision 0215). A lost kick only delays the offer
        // to the matchmaker's idle poll; the new slots are already committed, so it does not fail the edit.
        await kickMatchmaker(deps.temporal, deps.config, 'slots_raised').catch(() => undefined);
      }
      deps.cache.clear();
      return mustFind(teamId, row.id);
    },

    /**
     * go-live / pause / resume / end: Updates on `live-event:<id>` (go-live is update-with-start).
     * The workflow's validators refuse illegal moves (409 with the refusal code); a replay of the
     * state the event is already in answers 200 with the event and changes nothing. The update
     * answers after the workflow has projected the new status, so the event read back is current.
     */
    async transition(
      teamId: string,
      userId: string,
      eventId: string,
      transition: LiveEventTransition,
    ): Promise<LiveEventWithStats> {
      const row = await mustFind(teamId, eventId);
      const input: LiveEventTransitionInput = {
        requestedBy: userId,
        plannedEndAtMs: row.planned_end_at?.getTime() ?? null,
      };
      try {
        if (transition === 'goLive' && row.status !== 'live' && row.status !== 'paused') {
          // The plan's limit on live events at once (decision 0130). Go-lives of one team are
          // serialised by a transaction-scoped advisory lock held until the workflow has projected
          // `live`, so two at once cannot both pass the count.
          await deps.knex.transaction(async (trx) => {
            await trx.raw('SELECT pg_advisory_xact_lock(hashtext(?))', [`plan-limit:live-events:${teamId}`]);
            const plan = await deps.repos.billing.planOf(teamId, trx);
            const limit = maxLiveEventsOf(plan, deps.config.BILLING_FREE_MAX_LIVE_EVENTS);
            if (limit !== null && (await events.countLiveForTeam(teamId, row.id, trx)) >= limit) {
              throw new PlanLimitReachedError({
                plan,
                resource: 'live_events',
                limit,
                upgrade_url: `${deps.config.publicBaseUrl}/recruiter/billing`,
              });
            }
            await updateWithStart(row, transition, input);
          });
        } else if (transition === 'goLive') {
          await updateWithStart(row, transition, input);
        } else {
          try {
            await deps.temporal.workflow
              .getHandle(liveEventWorkflowId(row.id))
              .executeUpdate(UPDATES[transition], { args: [input] });
          } catch (err) {
            if (!(err instanceof WorkflowNotFoundError)) throw err;
            await withoutRun(teamId, row.id, transition, input);
          }
        }
      } catch (err) {
        if (err instanceof AppError) throw err;
        if (updateRefusal(err, REFUSALS)) {
          // The details name the event's status now (the refusal raced nothing: it is the workflow's answer).
          const current = await mustFind(teamId, row.id);
          const conflict = refusalConflict(err, REFUSALS, () => ({
            event_id: current.id,
            status: current.status,
            transition,
          }));
          if (conflict) throw conflict;
        }
        // The completed run of an ended event cannot be replaced: answer from the table.
        if (err instanceof WorkflowExecutionAlreadyStartedError) await withoutRun(teamId, row.id, transition, input);
        else throw err;
      }
      deps.cache.clear();
      return mustFind(teamId, row.id);
    },

    // ---- public discovery ----

    async liveNow(): Promise<LiveEventWithStats[]> {
      return events.listLiveNow(LIVE_NOW_LIMIT);
    },
    async publicList(q: { limit: number; cursor?: string }): Promise<Page<LiveEventWithStats>> {
      return deps.paginator.page<LiveEventWithStats>(events.publicEventsQuery(), {
        limit: q.limit,
        cursor: q.cursor,
        filter: { public: true },
        table: 'e',
      });
    },
    /** `{ event, jobs }` of an open-invite live/paused event; anything else is not found (existence not leaked). */
    async publicDetail(slug: string): Promise<{ event: LiveEventWithStats; jobs: JobWithEvent[] }> {
      const event = await events.findPublicBySlug(slug);
      if (!event) throw new NotFoundError('live event', slug);
      return { event, jobs: await jobs.listOpenForEvent(event.id, EVENT_DETAIL_JOBS_LIMIT) };
    },
  };
}
export type EventsService = ReturnType<typeof createEventsService>;
