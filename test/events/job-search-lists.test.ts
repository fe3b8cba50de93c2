import type { Knex } from 'knex';
import { createHarness, type Harness } from '../helpers/harness';
import { liveEvent, createEvent, transition } from './helpers';
import { createJobsRepository, type JobSearchParams } from '#db/events/jobs-repository';

/**
 * Job search on per-skill recency lists (decision 0257) answers exactly what the search answered
 * when it filtered every open job: the order's definition, written as one brute-force statement,
 * is the reference. The seeded set has a few common skills, a long tail, combinations that are
 * rare although their skills are common, equal timestamps, closed jobs and events nobody can
 * search; the searches cover 1–6 skills (past the 4 where a tier is split by exact subsets), the
 * filters and limits 1–50, and both ways a branch is read (the list walk and GIN) are asserted.
 */
describe('job search: per-skill lists give the same pages as filtering every job', () => {
  let h: Harness;
  let knex: Knex;
  const COMMON = ['typescript', 'python', 'go', 'postgresql', 'kubernetes', 'react'];
  const TAIL = Array.from({ length: 30 }, (_, i) => `tail-skill-${i}`);

  /** The search's definition: every open job of a searchable event, ordered by overlap, newest, id. */
  const reference = async (p: JobSearchParams) => {
    const q = knex('jobs as j')
      .join('live_events as e', 'e.id', 'j.live_event_id')
      .where('j.status', 'open')
      .andWhere('e.status', 'live')
      .andWhere('e.visibility', 'open_invite')
      .select(
        'j.id',
        knex.raw('(SELECT count(*) FROM unnest(?::text[]) s WHERE s = ANY(j.skill_ids))::int AS o', [p.skills]),
      )
      .orderBy([
        { column: 'o', order: 'desc' },
        { column: 'j.created_at', order: 'desc' },
        { column: 'j.id', order: 'desc' },
      ])
      .limit(p.limit);
    if (p.skills.length > 0) q.whereRaw('j.skill_ids && ?::text[]', [p.skills]);
    if (p.remote) q.andWhere('j.remote_preference', p.remote);
    if (p.location) q.whereRaw('lower(j.location) LIKE ?', [`%${p.location.toLowerCase()}%`]);
    if (p.salaryMin !== undefined) q.andWhere('j.salary_max', '>=', p.salaryMin);
    return ((await q) as Array<{ id: string; o: number }>).map((r) => `${r.id}:${r.o}`);
  };
  const searched = async (p: JobSearchParams) =>
    (await createJobsRepository(knex).search(p)).map((r) => `${r.id}:${r.skill_overlap}`);

  /** Searches drawn deterministically: common and tail skills mixed, filters sometimes. */
  const searches = (): JobSearchParams[] => {
    const out: JobSearchParams[] = [];
    const pool = [...COMMON, ...TAIL.slice(0, 6), 'no-such-skill'];
    for (let i = 0; i < 140; i++) {
      const k = 1 + (i % 6);
      const skills = [...new Set(Array.from({ length: k }, (_, j) => pool[(i * 7 + j * 5 + (i % 3)) % pool.length]))];
      out.push({
        skills: i % 13 === 12 ? [] : skills,
        remote: i % 4 === 0 ? (['remote', 'hybrid', 'onsite'] as const)[i % 3] : undefined,
        location: i % 5 === 0 ? ['ber', 'lon', 'par'][i % 3] : undefined,
        salaryMin: i % 6 === 0 ? 50_000 + (i % 4) * 20_000 : undefined,
        limit: [20, 1, 5, 50][i % 4],
      });
    }
    return out;
  };

  const plan = async (p: JobSearchParams) => {
    const repo = createJobsRepository(knex);
    const { sql, bindings } = repo.searchQuery(p, await repo.planSearch(p)).toSQL();
    const rows = (await knex.raw(`EXPLAIN ${sql}`, bindings as never)).rows as Array<Record<string, string>>;
    return rows.map((r) => r['QUERY PLAN']).join('\n');
  };

  beforeAll(async () => {
    h = await createHarness({ env: { PUBLIC_CACHE_TTL_MS: '0' } });
    knex = h.knex;
    const rec = await h.recruiter();
    const live = [(await liveEvent(h, rec)).id, (await liveEvent(h, rec)).id];
    const hidden = [(await liveEvent(h, rec, { visibility: 'private' })).id, (await createEvent(h, rec)).id];
    const paused = (await liveEvent(h, rec)).id;
    await transition(h, rec, paused, 'pause');
    const events = [...live, ...live, ...hidden, paused];
    const [team] = await knex('live_events').where({ id: live[0] }).select('team_id');
    await knex.transaction(async (trx) => {
      await trx.raw('SELECT setseed(0.26)');
      // 4,000 jobs: 3 skills skewed to the common ones, 2 from the long tail; a few pairs of common
      // skills (go + react) are made rare; timestamps on a coarse grid so many are equal.
      await trx.raw(
        `INSERT INTO jobs (team_id, live_event_id, title, essential_skills, bonus_skills, experience_min, salary_max, location, remote_preference, status, created_at)
         SELECT ?, (?::uuid[])[1 + floor(random() * ?)::int], 'Job ' || g,
           ARRAY[(?::text[])[1 + floor(power(random(), 2) * 6)::int], (?::text[])[1 + floor(power(random(), 2) * 6)::int]],
           ARRAY[(?::text[])[1 + floor(random() * 30)::int], (?::text[])[1 + floor(power(random(), 3) * 30)::int]],
           0, CASE WHEN random() < 0.2 THEN NULL ELSE 40000 + floor(random() * 10)::int * 10000 END,
           (ARRAY['Berlin', 'London', 'Paris', 'Lisbon', NULL])[1 + floor(random() * 5)::int],
           (ARRAY['remote', 'hybrid', 'onsite'])[1 + floor(random() * 3)::int],
           CASE WHEN random() < 0.1 THEN 'closed' ELSE 'open' END,
           now() - floor(random() * 400) * interval '1 minute'
         FROM generate_series(1, 4000) g`,
        [team.team_id, events, events.length, COMMON, COMMON, TAIL, TAIL],
      );
      await trx.raw(
        `UPDATE jobs SET essential_skills = array_remove(essential_skills, 'react')
         WHERE skill_ids @> '{go,react}' AND random() < 0.97`,
      );
    });
    await knex.raw('ANALYZE jobs');
    await knex.raw('ANALYZE job_skills');
  }, 120_000);
  afterAll(async () => h?.close());

  it('keeps one posting per open job and skill id, through inserts, updates, closes and deletes', async () => {
    const drift = async () =>
      (
        await knex.raw(`
          (SELECT skill_id, job_id, skill_ids, live_event_id, remote_preference, salary_max, location, created_at FROM job_skills
           EXCEPT SELECT unnest(skill_ids), id, skill_ids, live_event_id, remote_preference, salary_max, location, created_at FROM jobs WHERE status = 'open')
          UNION ALL
          (SELECT unnest(skill_ids), id, skill_ids, live_event_id, remote_preference, salary_max, location, created_at FROM jobs WHERE status = 'open'
           EXCEPT ALL SELECT skill_id, job_id, skill_ids, live_event_id, remote_preference, salary_max, location, created_at FROM job_skills)`)
      ).rows.length;
    expect(await drift()).toBe(0);
    const [a, b, c] = await knex('jobs').where({ status: 'open' }).orderBy('id').limit(3).pluck('id');
    await knex('jobs')
      .where({ id: a })
      .update({ bonus_skills: ['Kubernetes', 'elixir'], location: 'Porto' });
    await knex('jobs').where({ id: b }).update({ status: 'closed' });
    await knex('jobs').where({ id: c }).delete();
    expect(await drift()).toBe(0);
    expect(Number((await knex('job_skills').where({ job_id: b }).count().first())?.count)).toBe(0);
    await knex('jobs').where({ id: b }).update({ status: 'open' });
    expect(await drift()).toBe(0);
  });

  it('answers every seeded search as the reference does (ids, overlap and order)', async () => {
    const all = searches();
    const differ: string[] = [];
    for (const p of all) {
      const [want, got] = [await reference(p), await searched(p)];
      if (want.join() !== got.join()) differ.push(JSON.stringify(p));
    }
    expect(differ).toEqual([]);
    // The set is not trivial: most searches fill some of their page, and some pages span tiers.
    const filled = await Promise.all(all.map(async (p) => (await reference(p)).length));
    expect(filled.filter((n) => n > 0).length).toBeGreaterThan(100);
  }, 120_000);

  it('reads a common combination from the rarest skill list and collects a rare one', async () => {
    // Four common skills: few jobs list all of them, so the top tier collects those jobs (the GIN
    // branch: a materialised CTE; on a table this small PostgreSQL may read it without the index).
    const rare = { skills: ['typescript', 'python', 'go', 'postgresql'], limit: 20 };
    expect(await plan(rare)).toMatch(/CTE candidates/);
    expect(await searched(rare)).toEqual(await reference(rare));
    // Two common skills: many jobs list both, so each tier walks a list, newest first.
    const common = await plan({ skills: ['typescript', 'python'], limit: 20 });
    expect(common).toMatch(/job_skills_list_idx/);
    expect(common).not.toMatch(/CTE candidates/);
  });
});
