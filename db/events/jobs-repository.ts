import type { Knex } from 'knex';
import { UUID_RE } from '#lib/ids';
import type { LiveEventStatus } from '#workflows/events/contract';

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

/** How long a repository keeps the skill frequencies it plans a search with (pg_stats). */
const SKILL_STATS_TTL_MS = 60_000;
/**
 * What reading one job from the table costs, in index entries walked: a branch reads its jobs
 * through GIN when that is estimated cheaper than walking its list (index-only) to the page.
 */
const HEAP_READ_COST = 10;
/** The share of jobs a filter keeps, as a branch's plan assumes (the bench's data; roughly real). */
const FILTER_SHARE = { event: 0.5, remote: 1 / 3, location: 1 / 20, salary: 1 / 2 };
/** Up to this many requested skills, a tier is split by the exact subset of skills a job lists. */
const SUBSET_BRANCH_MAX_SKILLS = 4;
/** The m-element subsets of `xs`, in order. */
function subsets<T>(xs: T[], m: number): T[][] {
  if (m === 0) return [[]];
  if (m > xs.length) return [];
  const [head, ...rest] = xs;
  return [...subsets(rest, m - 1).map((s) => [head, ...s]), ...subsets(rest, m)];
}

interface SkillStats {
  /** Share of jobs listing each skill id (jobs.skill_ids' most common elements). */
  share: Map<string, number>;
  /** The share assumed for a skill not among them (the least common one's). */
  rare: number;
  jobs: number;
}

export function createJobsRepository(knex: Knex) {
  const withEvent = (trx: Knex) =>
    trx('jobs as j')
      .join('live_events as e', 'e.id', 'j.live_event_id')
      .select('j.*', 'e.slug as event_slug', 'e.status as event_status', 'e.company_name', 'e.logo_url');

  /** Skill shares from the table's statistics (ANALYZE / autovacuum), kept a minute. */
  let stats: { at: number; of: SkillStats } | undefined;
  const skillStats = async (trx: Knex): Promise<SkillStats> => {
    if (stats && Date.now() - stats.at < SKILL_STATS_TTL_MS) return stats.of;
    const { rows } = await trx.raw(
      `SELECT s.most_common_elems::text::text[] AS elems, s.most_common_elem_freqs AS freqs, c.reltuples AS jobs
       FROM pg_class c LEFT JOIN pg_stats s
         ON s.schemaname = current_schema() AND s.tablename = 'jobs' AND s.attname = 'skill_ids'
       WHERE c.oid = 'jobs'::regclass`,
    );
    const [r] = rows as Array<{ elems: string[] | null; freqs: number[] | null; jobs: number }>;
    const share = new Map<string, number>();
    r?.elems?.forEach((v, i) => share.set(v, r.freqs?.[i] ?? 0));
    // most_common_elem_freqs ends with the least and greatest share, then the share of nulls.
    const rare = r?.freqs && r.elems ? (r.freqs[r.elems.length] ?? 0) : 0;
    stats = { at: Date.now(), of: { share, rare, jobs: Math.max(0, Number(r?.jobs ?? 0)) } };
    return stats.of;
  };
  const shareOf = (st: SkillStats, id: string) => st.share.get(id) ?? st.rare;

  /** The search's plan inputs: the requested skills rarest first (ties in the order asked), and their statistics. */
  const planSearch = async (
    p: JobSearchParams,
    trx: Knex = knex,
  ): Promise<{ ordered: string[]; stats: SkillStats }> => {
    const st = p.skills.length === 0 ? { share: new Map(), rare: 0, jobs: 0 } : await skillStats(trx);
    const ordered = p.skills
      .map((id, i) => ({ id, i, f: shareOf(st, id) }))
      .sort((a, b) => a.f - b.f || a.i - b.i)
      .map((x) => x.id);
    return { ordered, stats: st };
  };

  /** The tiers of a search, best first: overlap k, k-1, …, 1 (one tier, 0, without skills). */
  const tiersOf = (p: JobSearchParams) =>
    p.skills.length === 0 ? [0] : Array.from({ length: p.skills.length }, (_, i) => p.skills.length - i);

  /** The event and the filters, on a row `j` (a job or a posting) joined to its event `e`. */
  const filtersWhere = (q: Knex.QueryBuilder, p: JobSearchParams, j: string): Knex.QueryBuilder => {
    q.andWhere('e.status', 'live').andWhere('e.visibility', 'open_invite');
    if (p.remote) q.andWhere(`${j}.remote_preference`, p.remote);
    if (p.location) q.whereRaw(`lower(${j}.location) LIKE ?`, [`%${escapeLike(p.location.toLowerCase())}%`]);
    if (p.salaryMin !== undefined) q.andWhere(`${j}.salary_max`, '>=', p.salaryMin);
    return q;
  };
  const newestFirst = (alias: string, id = 'id') => [
    { column: `${alias}.created_at`, order: 'desc' as const },
    { column: `${alias}.${id}`, order: 'desc' as const },
  ];

  /**
   * A search without skills: open jobs newest first, from `jobs_open_search_ids_idx`, which
   * carries every column the filters read (an index-only walk; its filters alone keep about one
   * job in 200 in the bench's data, so the walk is short at any size).
   */
  const recentIds = (p: JobSearchParams, limit: number, trx: Knex): Knex.QueryBuilder =>
    filtersWhere(trx('jobs as j').join('live_events as e', 'e.id', 'j.live_event_id').where('j.status', 'open'), p, 'j')
      .select('j.id', 'j.created_at', trx.raw('0::int AS skill_overlap'))
      .orderBy(newestFirst('j'))
      .limit(limit);

  /**
   * One branch of a tier: the jobs listing all of `has` and none of `hasNot` (and, past
   * SUBSET_BRANCH_MAX_SKILLS skills, exactly `overlap` of the requested ones), newest first, at most
   * `limit`. Read from the per-skill list of the rarest skill of `has` (`job_skills_list_idx`: per
   * skill, its open jobs newest first, with the columns the filters read; an index-only walk that
   * stops at the limit, or at the end of that list) — or, when reading the jobs listing all of
   * `has` is estimated cheaper than that walk (a rare combination), through the GIN index on
   * jobs.skill_ids: those jobs are collected (a materialised CTE, which has no order for the recency
   * index to serve) and sorted.
   */
  const branchIds = (
    p: JobSearchParams,
    b: { has: string[]; hasNot: string[]; exactly?: { of: string[]; overlap: number } },
    st: SkillStats,
    limit: number,
    trx: Knex,
  ) => {
    // Jobs listing all of `has`, and the entries the list walk reads for `limit` of them (at most its list).
    const jobs = b.has.reduce((n, id) => n * shareOf(st, id), st.jobs);
    const kept =
      FILTER_SHARE.event *
      (p.remote ? FILTER_SHARE.remote : 1) *
      (p.location ? FILTER_SHARE.location : 1) *
      (p.salaryMin !== undefined ? FILTER_SHARE.salary : 1);
    const listed = st.jobs * shareOf(st, b.has[0]);
    const walk = Math.min(listed, (limit * listed) / Math.max(jobs * kept, 1e-9));
    const skillsWhere = (q: Knex.QueryBuilder, j: string) => {
      if (b.has.length > 1) q.whereRaw(`${j}.skill_ids @> ?::text[]`, [b.has]);
      if (b.hasNot.length > 0) q.whereRaw(`NOT (${j}.skill_ids && ?::text[])`, [b.hasNot]);
      if (b.exactly) {
        q.whereRaw(`(${b.exactly.of.map(() => `(${j}.skill_ids @> ARRAY[?]::text[])::int`).join(' + ')}) = ?`, [
          ...b.exactly.of,
          b.exactly.overlap,
        ]);
      }
      return q;
    };
    if (b.has.length > 1 && jobs * HEAP_READ_COST < walk) {
      const candidates = skillsWhere(
        filtersWhere(
          trx('jobs as j').join('live_events as e', 'e.id', 'j.live_event_id').where('j.status', 'open'),
          p,
          'j',
        ),
        'j',
      ).select('j.id', 'j.created_at');
      return trx
        .withMaterialized('candidates', candidates)
        .from('candidates as c')
        .select('c.id', 'c.created_at')
        .orderBy(newestFirst('c'))
        .limit(limit);
    }
    return skillsWhere(
      filtersWhere(
        trx('job_skills as js').join('live_events as e', 'e.id', 'js.live_event_id').where('js.skill_id', b.has[0]),
        p,
        'js',
      ),
      'js',
    )
      .select('js.job_id as id', 'js.created_at')
      .orderBy(newestFirst('js', 'job_id'))
      .limit(limit);
  };

  /**
   * One tier of a skills search: the jobs listing exactly `overlap` of the requested skills, newest
   * first, as branches that no job is in twice, each giving its newest `limit` (newest first, so a
   * Merge Append reads each only as far as the page needs), of which the tier keeps the newest
   * `limit`. `ordered` is the requested skills rarest first. Up to 4 skills a branch is one exact
   * subset (lists all of it, none of the other requested skills); past 4, a branch is the jobs
   * whose rarest requested skill is one given skill. The top tier is one branch.
   */
  const tierIds = (
    p: JobSearchParams,
    ordered: string[],
    st: SkillStats,
    overlap: number,
    limit: number,
    trx: Knex,
  ) => {
    const k = ordered.length;
    const branches =
      k <= SUBSET_BRANCH_MAX_SKILLS
        ? subsets(ordered, overlap).map((has) => ({ has, hasNot: ordered.filter((s) => !has.includes(s)) }))
        : ordered
            .slice(0, k - overlap + 1)
            .map((skill, i) => ({ has: [skill], hasNot: ordered.slice(0, i), exactly: { of: ordered, overlap } }));
    const ids = branches.map((b) => branchIds(p, b, st, limit, trx));
    return trx
      .select('*', trx.raw('?::int AS skill_overlap', [overlap]))
      .from(trx.raw(`(${ids.map(() => '?').join(' UNION ALL ')}) AS branches`, ids))
      .orderBy(newestFirst('branches'))
      .limit(limit);
  };

  /**
   * The whole search as one statement: the tiers, best first, as the branches of a UNION ALL under
   * one LIMIT. PostgreSQL's Append runs its branches in order and the Limit above it stops pulling
   * once the page is full, so a lower tier's walk never starts when a higher one filled the page.
   * Only the page's ids come out of it; the jobs and their events are read for those rows alone,
   * and the order is restated outside (overlap, then newest, then id) over at most `limit` rows.
   */
  const searchQuery = (
    p: JobSearchParams,
    plan: { ordered: string[]; stats: SkillStats },
    trx: Knex = knex,
  ): Knex.QueryBuilder => {
    const tiers =
      p.skills.length === 0
        ? [recentIds(p, p.limit, trx)]
        : tiersOf(p).map((o) =>
            trx.select('*').from(tierIds(p, plan.ordered, plan.stats, o, p.limit, trx).as(`tier${o}`)),
          );
    const page = trx
      .select('*')
      .from(trx.raw(`(${tiers.map(() => '?').join(' UNION ALL ')}) AS tiers`, tiers))
      .limit(p.limit);
    return withEvent(trx)
      .select('top.skill_overlap')
      .join(page.as('top'), 'top.id', 'j.id')
      .orderBy([{ column: 'top.skill_overlap', order: 'desc' }, ...newestFirst('top')]);
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

    /** What `search` plans with: the requested skills rarest first, and their statistics. */
    planSearch,
    /** The search's statement for a plan of `planSearch` (EXPLAIN in the benches). */
    searchQuery,
    /**
     * Open jobs of live, open-invite events. Order: number of requested skills the job lists
     * (essential or bonus) descending, then newest first, then id (stable for equal timestamps).
     */
    async search(p: JobSearchParams, trx: Knex = knex): Promise<JobSearchHit[]> {
      return (await searchQuery(p, await planSearch(p, trx), trx)) as JobSearchHit[];
    },
  };
}
export type JobsRepository = ReturnType<typeof createJobsRepository>;
