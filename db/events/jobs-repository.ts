import type { Knex } from 'knex';
import { UUID_RE } from '../../lib/ids';
import type { LiveEventStatus } from '../../workflows/events/contract';

/** A job's remote mode (the spec's job vocabulary; a seeker profile has its own, PROFILE_REMOTE_PREFERENCES). */
export const JOB_REMOTE_PREFERENCES = ['remote', 'hybrid', 'onsite'] as const;
export type RemotePreference = (typeof JOB_REMOTE_PREFERENCES)[number];
export const JOB_STATUSES = ['open', 'closed'] as const;
export type JobStatus = (typeof JOB_STATUSES)[number];

export interface JobRow {
  id: string;
  team_id: string;
  live_event_id: string;
  title: string;
  essential_skills: string[];
  bonus_skills: string[];
  experience_min: number;
  salary_min: number | null;
  salary_max: number | null;
  location: string | null;
  remote_preference: RemotePreference | null;
  status: JobStatus;
  /** Generated: essential + bonus skills, trimmed, lower-cased, de-duplicated. */
  skill_tags: string[];
  /** Essential + bonus skills as canonical skill ids (domain/matchmaking/skills.ts), set by a trigger. */
  skill_ids: string[];
  closed_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

/** A job with what its public shape needs from the parent event. */
export interface JobWithEvent extends JobRow {
  event_slug: string;
  event_status: LiveEventStatus;
  company_name: string;
  logo_url: string | null;
}

export interface JobSearchHit extends JobWithEvent {
  skill_overlap: number;
}

export type JobFields = Pick<
  JobRow,
  | 'title'
  | 'essential_skills'
  | 'bonus_skills'
  | 'experience_min'
  | 'salary_min'
  | 'salary_max'
  | 'location'
  | 'remote_preference'
>;

export interface JobSearchParams {
  /** Canonical skill ids (distinct; `skills.idsOf` of what was asked); empty = no skills filter. */
  skills: string[];
  remote?: RemotePreference;
  location?: string;
  salaryMin?: number;
  limit: number;
}

const escapeLike = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Up to this many requested skills, a tier is written as containment of skill subsets (at most 6 per side). */
const SUBSET_TIER_MAX_SKILLS = 4;
/** The m-element subsets of `xs`, in order. */
function subsets<T>(xs: T[], m: number): T[][] {
  if (m === 0) return [[]];
  if (m > xs.length) return [];
  const [head, ...rest] = xs;
  return [...subsets(rest, m - 1).map((s) => [head, ...s]), ...subsets(rest, m)];
}

export function createJobsRepository(knex: Knex) {
  const withEvent = (trx: Knex) =>
    trx('jobs as j')
      .join('live_events as e', 'e.id', 'j.live_event_id')
      .select('j.*', 'e.slug as event_slug', 'e.status as event_status', 'e.company_name', 'e.logo_url');

  /**
   * One tier of the search: the jobs that list exactly `overlap` of the requested skills, newest
   * first. The top tier (all skills) is a GIN containment (`@>`); lower tiers filter on `&&` plus
   * a sum of containment tests. Each tier is ordered by created_at alone, so PostgreSQL can walk
   * the recency index and stop at the limit when matches are common, or use the GIN index and
   * sort a few rows when they are rare — instead of sorting every match by its overlap.
   *
   * Two steps: the ids (and order) come from `jobs_open_search_ids_idx`, which carries every column
   * the filters read, so the walk is an index-only scan; only the page's jobs are then read from
   * the table (before: filtering on table rows read ~6,000 of them for a page of 20).
   */
  const searchTierIds = (p: JobSearchParams, overlap: number, limit: number, trx: Knex = knex): Knex.QueryBuilder => {
    const ids = trx('jobs as j')
      .join('live_events as e', 'e.id', 'j.live_event_id')
      .where('j.status', 'open')
      .andWhere('e.status', 'live')
      .andWhere('e.visibility', 'open_invite');
    if (p.remote) ids.andWhere('j.remote_preference', p.remote);
    // lower(location) LIKE can use the trigram index on lower(location), or the index's copy of location.
    if (p.location) ids.whereRaw('lower(j.location) LIKE ?', [`%${escapeLike(p.location.toLowerCase())}%`]);
    if (p.salaryMin !== undefined) ids.andWhere('j.salary_max', '>=', p.salaryMin);
    if (p.skills.length > 0 && overlap === p.skills.length) {
      ids.whereRaw('j.skill_ids @> ?::text[]', [p.skills]);
    } else if (p.skills.length > 0 && p.skills.length <= SUBSET_TIER_MAX_SKILLS) {
      // "Exactly m of the k skills" as "contains some m of them and no m+1 of them": containment
      // of a set is what PostgreSQL's array statistics estimate well, so it picks the recency walk
      // when a tier is common (a sum of tests is estimated at 0.5 % and sent it to a bitmap scan
      // and a sort of ~11,000 rows for 3 common skills).
      const some = (m: number) => subsets(p.skills, m);
      ids.where((w) => {
        for (const sub of some(overlap)) w.orWhereRaw('j.skill_ids @> ?::text[]', [sub]);
      });
      ids.whereNot((w) => {
        for (const sub of some(overlap + 1)) w.orWhereRaw('j.skill_ids @> ?::text[]', [sub]);
      });
    } else if (p.skills.length > 0) {
      ids.whereRaw('j.skill_ids && ?::text[]', [p.skills]);
      ids.whereRaw(`(${p.skills.map(() => '(j.skill_ids @> ARRAY[?]::text[])::int').join(' + ')}) = ?`, [
        ...p.skills,
        overlap,
      ]);
    }
    return ids
      .select('j.id', 'j.created_at', trx.raw('?::int AS skill_overlap', [overlap]))
      .orderBy([
        { column: 'j.created_at', order: 'desc' },
        { column: 'j.id', order: 'desc' },
      ])
      .limit(limit);
  };

  /**
   * The whole search as one statement (one round trip instead of one per tier): the tiers, best
   * first, as the branches of a UNION ALL under one LIMIT. PostgreSQL's Append runs its branches in
   * order and the Limit above it stops pulling once the page is full, so a lower tier's walk never
   * starts when a higher one filled the page — the early stop the tier-by-tier loop had. Only the
   * page's ids come out of it; the jobs and their events are read for those rows alone, and the
   * order is restated outside (overlap, then newest, then id) over at most `limit` rows.
   */
  const searchQuery = (p: JobSearchParams, trx: Knex = knex): Knex.QueryBuilder => {
    const overlaps =
      p.skills.length === 0 ? [0] : Array.from({ length: p.skills.length }, (_, i) => p.skills.length - i);
    const tiers = overlaps.map((o) => searchTierIds(p, o, p.limit, trx));
    const page = trx
      .select('*')
      .from(trx.raw(`(${tiers.map(() => '?').join(' UNION ALL ')}) AS tiers`, tiers))
      .limit(p.limit);
    return withEvent(trx)
      .select('top.skill_overlap')
      .join(page.as('top'), 'top.id', 'j.id')
      .orderBy([
        { column: 'top.skill_overlap', order: 'desc' },
        { column: 'top.created_at', order: 'desc' },
        { column: 'top.id', order: 'desc' },
      ]);
  };

  return {
    /** An open job that the public can see: its event is live or paused and open to everyone. */
    async findPublicById(id: string, trx: Knex = knex): Promise<JobWithEvent | undefined> {
      if (!UUID_RE.test(id)) return undefined;
      return withEvent(trx)
        .where('j.id', id)
        .andWhere('j.status', 'open')
        .whereIn('e.status', ['live', 'paused'])
        .andWhere('e.visibility', 'open_invite')
        .first();
    },

    async insert(
      input: JobFields & { id?: string; team_id: string; live_event_id: string },
      trx: Knex = knex,
    ): Promise<JobRow> {
      const [row] = await trx('jobs').insert(input).returning('*');
      return row;
    },
    /** Team-scoped: another team's job is simply not found. */
    async findForTeam(teamId: string, id: string, trx: Knex = knex): Promise<JobWithEvent | undefined> {
      if (!UUID_RE.test(id)) return undefined;
      return withEvent(trx).where('j.id', id).andWhere('j.team_id', teamId).first();
    },
    /** Query for the pagination helper (alias `j`): the team's jobs, optionally by event and status. */
    teamJobsQuery(
      teamId: string,
      filter: { liveEventId?: string; status?: JobStatus },
      trx: Knex = knex,
    ): Knex.QueryBuilder {
      const q = withEvent(trx).where('j.team_id', teamId);
      if (filter.liveEventId) q.andWhere('j.live_event_id', filter.liveEventId);
      if (filter.status) q.andWhere('j.status', filter.status);
      return q;
    },
    async update(
      teamId: string,
      id: string,
      fields: Partial<JobFields>,
      trx: Knex = knex,
    ): Promise<JobRow | undefined> {
      const [row] = await trx('jobs')
        .where({ id, team_id: teamId })
        .update({ ...fields, updated_at: trx.fn.now() })
        .returning('*');
      return row;
    },
    /** Closes an open job; a closed one is left as it is. */
    async close(teamId: string, id: string, trx: Knex = knex): Promise<void> {
      await trx('jobs')
        .where({ id, team_id: teamId, status: 'open' })
        .update({ status: 'closed', closed_at: trx.fn.now(), updated_at: trx.fn.now() });
    },

    // ---- public discovery ----

    /** Open jobs of one event, newest first. */
    async listOpenForEvent(eventId: string, limit: number, trx: Knex = knex): Promise<JobWithEvent[]> {
      return withEvent(trx)
        .where('j.live_event_id', eventId)
        .andWhere('j.status', 'open')
        .orderBy([
          { column: 'j.created_at', order: 'desc' },
          { column: 'j.id', order: 'desc' },
        ])
        .limit(limit);
    },

    searchQuery,
    /**
     * Open jobs of live, open-invite events. Order: number of requested skills the job lists
     * (essential or bonus) descending, then newest first, then id (stable for equal timestamps).
     * Tiers overlap = k, k-1, …, 1, in one statement that stops once the limit is filled.
     */
    async search(p: JobSearchParams, trx: Knex = knex): Promise<JobSearchHit[]> {
      return (await searchQuery(p, trx)) as JobSearchHit[];
    },
  };
}
export type JobsRepository = ReturnType<typeof createJobsRepository>;
