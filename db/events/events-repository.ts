import type { Knex } from 'knex';
import { UUID_RE } from '#lib/ids';

import { PUBLIC_LIVE_EVENT_STATUSES, type LiveEventStatus } from '#workflows/events/contract';

export type { LiveEventStatus };
/** Who may find an event: `open_invite` events are public while live or paused. */
export const EVENT_VISIBILITIES = ['open_invite', 'private'] as const;
export type EventVisibility = (typeof EVENT_VISIBILITIES)[number];

export interface LiveEventRow {
  id: string;
  team_id: string;
  slug: string;
  company_name: string;
  headline: string | null;
  description: string | null;
  accent_color: string;
  logo_url: string | null;
  visibility: EventVisibility;
  status: LiveEventStatus;
  planned_start_at: Date | null;
  planned_end_at: Date | null;
  started_at: Date | null;
  ends_at: Date | null;
  ended_at: Date | null;
  interview_slots: number;
  /** Distinct seekers who ever queued for the event (kept by a trigger on queue_entries). */
  candidates_joined: number;
  /** Matches of the event (kept by a trigger on matches). */
  matches_made: number;
  /** Distinct titles of the event's open jobs, newest first, at most JOB_TITLES_PER_EVENT (kept by triggers on jobs). */
  job_titles: string[];
  created_by?: string | null;
  created_at: Date;
  updated_at: Date;
}

/** A row with the public counters of the LiveEvent resource (columns of live_events since decision 0185). */
export type LiveEventWithStats = LiveEventRow;

/** What the API writes: the descriptive part of an event (never its lifecycle columns). */
export type LiveEventDescription = Partial<
  Pick<
    LiveEventRow,
    | 'slug'
    | 'company_name'
    | 'headline'
    | 'description'
    | 'accent_color'
    | 'logo_url'
    | 'visibility'
    | 'planned_start_at'
    | 'planned_end_at'
    | 'interview_slots'
  >
>;

/** The lifecycle columns: written only by the liveEvent workflow's projection activity. */
export interface LiveEventLifecycle {
  status: LiveEventStatus;
  started_at: string | null;
  ends_at: string | null;
  ended_at: string | null;
}

/** Distinct titles of an event's open jobs, most recent first, at most this many. */
export const JOB_TITLES_PER_EVENT = 50;

export const isUniqueViolation = (err: unknown, constraint?: string): boolean =>
  (err as { code?: string })?.code === '23505' &&
  (!constraint || (err as { constraint?: string }).constraint === constraint);

/** The part of a pooled `pg` connection the version read uses. */
interface PgQueryable {
  query(q: { name: string; text: string }): Promise<{ rows: Array<{ v: string }> }>;
}

export function createEventsRepository(knex: Knex) {
  /**
   * The LiveEvent counters are columns kept by the writes that change them (migration
   * 20261122201701_live_event_stats, decision 0185): a read selects them, it no longer recomputes them.
   */
  const withStats = (q: Knex.QueryBuilder, _trx: Knex) => q.select('e.*');
  const publicRows = (trx: Knex) =>
    trx('live_events as e').where('e.visibility', 'open_invite').whereIn('e.status', PUBLIC_LIVE_EVENT_STATUSES);

  return {
    /** Live or paused events of a team other than `exceptId` (what the plan's live-event limit counts). */
    async countLiveForTeam(teamId: string, exceptId: string, trx: Knex = knex): Promise<number> {
      const r = await trx('live_events')
        .where({ team_id: teamId })
        .whereIn('status', ['live', 'paused'])
        .whereNot({ id: exceptId })
        .count<{ n: string }[]>({ n: '*' });
      return Number(r[0]?.n ?? 0);
    },
    async findById(id: string, trx: Knex = knex): Promise<LiveEventRow | undefined> {
      return trx('live_events').where({ id }).first();
    },
    async findBySlug(slug: string, trx: Knex = knex): Promise<LiveEventRow | undefined> {
      return trx('live_events').where({ slug }).first();
    },
    /** The queue-join alias `event_id` may carry a slug or an id: a UUID is an id (slugs may not look like one). */
    async findBySlugOrId(ref: string, trx: Knex = knex): Promise<LiveEventRow | undefined> {
      return UUID_RE.test(ref)
        ? trx('live_events').where({ id: ref }).first()
        : trx('live_events').where({ slug: ref }).first();
    },

    // ---- recruiter side (descriptive records, written by the API) ----

    async insert(
      input: LiveEventDescription & {
        id?: string;
        team_id: string;
        slug: string;
        company_name: string;
        visibility: EventVisibility;
        created_by: string;
      },
      trx: Knex = knex,
    ): Promise<LiveEventRow> {
      const [row] = await trx('live_events').insert(input).returning('*');
      return row;
    },
    /** Team-scoped: another team's event is simply not found. */
    async findForTeam(teamId: string, id: string, trx: Knex = knex): Promise<LiveEventWithStats | undefined> {
      if (!UUID_RE.test(id)) return undefined;
      return withStats(trx('live_events as e').where('e.id', id).andWhere('e.team_id', teamId), trx).first();
    },
    async findWithStats(id: string, trx: Knex = knex): Promise<LiveEventWithStats | undefined> {
      return withStats(trx('live_events as e').where('e.id', id), trx).first();
    },
    /** Query for the pagination helper (table alias `e`): the team's events, optionally by status. */
    teamEventsQuery(teamId: string, filter: { status?: LiveEventStatus }, trx: Knex = knex): Knex.QueryBuilder {
      const q = withStats(trx('live_events as e').where('e.team_id', teamId), trx);
      if (filter.status) q.andWhere('e.status', filter.status);
      return q;
    },
    async updateDescription(
      teamId: string,
      id: string,
      fields: LiveEventDescription,
      trx: Knex = knex,
    ): Promise<LiveEventRow | undefined> {
      const [row] = await trx('live_events')
        .where({ id, team_id: teamId })
        .update({ ...fields, updated_at: trx.fn.now() })
        .returning('*');
      return row;
    },

    // ---- lifecycle (one writer: the liveEvent workflow) ----

    async projectLifecycle(id: string, lifecycle: LiveEventLifecycle, trx: Knex = knex): Promise<void> {
      await trx('live_events')
        .where({ id })
        .update({ ...lifecycle, updated_at: trx.fn.now() });
    },
    /** User ids of waiting queue entries for the event, in id order after `afterUserId` (drain pages). */
    async listWaitingSeekerIds(
      eventId: string,
      opts: { afterUserId: string | null; limit: number },
      trx: Knex = knex,
    ): Promise<string[]> {
      const q = trx('queue_entries')
        .where({ live_event_id: eventId, status: 'waiting' })
        .distinct('user_id')
        .orderBy('user_id')
        .limit(opts.limit);
      if (opts.afterUserId) q.andWhere('user_id', '>', opts.afterUserId);
      const rows: Array<{ user_id: string }> = await q;
      return rows.map((r) => r.user_id);
    },

    // ---- public discovery ----

    /** Live and paused open-invite events, most recently started first. */
    async listLiveNow(limit: number, trx: Knex = knex): Promise<LiveEventWithStats[]> {
      return withStats(publicRows(trx), trx).orderByRaw('e.started_at DESC NULLS LAST, e.id DESC').limit(limit);
    },
    /** Query for the pagination helper (alias `e`): every publicly listed event. */
    publicEventsQuery(trx: Knex = knex): Knex.QueryBuilder {
      return withStats(publicRows(trx), trx);
    },
    /** An open-invite live/paused event by slug; anything else (draft, ended, private) is undefined. */
    async findPublicBySlug(slug: string, trx: Knex = knex): Promise<LiveEventWithStats | undefined> {
      return withStats(publicRows(trx).andWhere('e.slug', slug), trx).first();
    },
    /**
     * The data version of public discovery: bumped in the writer's transaction by every change to
     * what a discovery answer shows (migration 20261123001701), so an answer built under version v
     * is current while this still reads v.
     */
    async discoveryVersion(): Promise<string> {
      // Read on cached discovery answers (one read per round trip under load): straight on a pooled
      // connection as a named prepared statement, without the query builder's per-query work.
      const client = knex.client as {
        acquireConnection(): Promise<PgQueryable>;
        releaseConnection(c: PgQueryable): Promise<void>;
      };
      const conn = await client.acquireConnection();
      try {
        const r = await conn.query({
          name: 'jobfair_discovery_version',
          text: 'SELECT version::text AS v FROM discovery_version',
        });
        return r.rows[0]?.v ?? '0';
      } finally {
        await client.releaseConnection(conn);
      }
    },
  };
}
export type EventsRepository = ReturnType<typeof createEventsRepository>;
