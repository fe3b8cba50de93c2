/**
 * How one matching round scales (issue 12 item 6), on a throw-away PostgreSQL and Temporal dev
 * server: for each job count J (`--jobs`, comma-separated) J/100 live open-invite events of 100 open
 * jobs and 3 interview slots each; for each waiting-entry count W (`--waiting`) W seekers wait
 * (half for one event, half for any event), oldest first. One `runMatchingRound` (the production
 * activity, default floor) is timed `--repeat` times per cell: plan (reads + candidate search, no
 * locks), hold (the locked part), offer (the Temporal calls; here every offer is refused — the
 * entries have no workflow — so the data stays the same for the next repeat), and the whole round.
 *
 * A round considers at most MATCHMAKER_BATCH_SIZE (500) of the oldest waiting entries and offers
 * at most the free slots, so its cost should not grow with W beyond the cost of reading the oldest
 * 500 — this bench checks that claim.
 *
 *   npm run bench -- matching-scale [--waiting 100,1000,10000] [--jobs 10000,100000] [--repeat 3]
 */
import { Client, Connection } from '@temporalio/client';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import os from 'node:os';
import { loadConfig } from '../lib/config';
import { startThrowawayInfrastructure } from '../lib/stack';
import { ensureDatabase } from '../lib/postgres-server';
import { createKnex, migrateLatest } from '../db/knex';
import { createRepositories } from '../db/repositories';
import { createMatchmakingActivities, type RoundTimings } from '../activities/matchmaking/matchmaking-activities';
import { MATCHMAKER_BATCH_SIZE } from '../workflows/matchmaking/contract';

const listArg = (name: string, def: number[]): number[] => {
  const i = process.argv.indexOf(name);
  if (i < 0) return def;
  const v = (process.argv[i + 1] ?? '').split(',').map(Number);
  if (!v.length || v.some((n) => !Number.isInteger(n) || n <= 0)) throw new Error(`${name} needs comma-separated positive integers`);
  return v;
};
const VOCABULARY = Array.from({ length: 200 }, (_, i) => (i < 20 ? ['TypeScript', 'Python', 'Go', 'Rust', 'Java', 'Kotlin', 'PostgreSQL', 'Redis', 'Kafka', 'React', 'Vue', 'Node.js', 'Django', 'Kubernetes', 'Docker', 'AWS', 'GCP', 'GraphQL', 'SQL', 'Spark'][i] : `skill-${i}`));
const CITIES = ['Berlin', 'London', 'Paris', 'Amsterdam', 'Lisbon', 'Madrid', 'Warsaw', 'Prague', 'Vienna', 'Zurich'];
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function main() {
  const waiting = listArg('--waiting', [100, 1_000, 10_000]);
  const jobCounts = listArg('--jobs', [10_000, 100_000]);
  const repeat = listArg('--repeat', [3])[0];
  const log = (l: string) => console.log(`[bench] ${l}`);
  const base = loadConfig({ ...process.env, NODE_ENV: 'test', TEMPORAL_ADDRESS: process.env.BENCH_TEMPORAL_ADDRESS ?? '', DATABASE_URL: '' });
  Runtime.install({ logger: new DefaultLogger('ERROR') });
  const infra = await startThrowawayInfrastructure({ config: base, log: () => undefined, prefix: 'jobfair-bench-scale' });
  const rows: string[] = [];
  try {
    const adminUrl = infra.adminDatabaseUrl ?? infra.databaseUrl;
    const connection = await Connection.connect({ address: infra.temporalAddress });
    const temporal = new Client({ connection });
    for (const jobs of jobCounts) {
      const db = `bench_scale_${jobs}`;
      await ensureDatabase(adminUrl, db);
      const knex = createKnex(adminUrl.replace(/\/[^/?]+(\?|$)/, `/${db}$1`), 12);
      try {
        await migrateLatest(knex);
        const events = Math.max(1, Math.round(jobs / 100));
        const t = Date.now();
        await knex.raw(`INSERT INTO teams (id, name) SELECT gen_random_uuid(), 'Scale team ' || g FROM generate_series(1, ?) g`, [Math.max(1, Math.ceil(events / 10))]);
        await knex.raw(
          `INSERT INTO live_events (team_id, slug, company_name, visibility, status, interview_slots, started_at)
           SELECT (SELECT id FROM teams ORDER BY id OFFSET (g % (SELECT count(*) FROM teams)) LIMIT 1), 'scale-' || g, 'Company ' || g, 'open_invite', 'live', 3, now()
             FROM generate_series(1, ?) g`,
          [events],
        );
        await knex.raw(
          `INSERT INTO jobs (team_id, live_event_id, title, essential_skills, bonus_skills, experience_min, location, remote_preference)
           SELECT e.team_id, e.id, 'Job ' || j,
             ARRAY[(?::text[])[1 + floor(power(random(), 2) * 200)::int], (?::text[])[1 + floor(random() * 200)::int]],
             ARRAY[(?::text[])[1 + floor(random() * 200)::int]],
             floor(random() * 8)::int, (?::text[])[1 + floor(random() * 10)::int], (ARRAY['remote','hybrid','onsite'])[1 + floor(random() * 3)::int]
             FROM live_events e CROSS JOIN generate_series(1, 100) j`,
          [VOCABULARY, VOCABULARY, VOCABULARY, CITIES],
        );
        log(`${jobs} jobs: seeded ${events} events in ${((Date.now() - t) / 1000).toFixed(1)} s`);
        const repos = createRepositories(knex);
        for (const w of waiting) {
          await knex.raw('TRUNCATE match_offers, queue_entries CASCADE');
          await knex('profiles').del();
          await knex('users').where({ role: 'seeker' }).del();
          await knex.raw(`INSERT INTO users (email, display_name, role) SELECT 'scale-' || g || '@bench.local', 'Seeker ' || g, 'seeker' FROM generate_series(1, ?) g`, [w]);
          await knex.raw(
            `INSERT INTO profiles (user_id, full_name, skills, experience_years, location, remote_preference)
             SELECT u.id, u.display_name, ARRAY[(?::text[])[1 + floor(power(random(), 2) * 200)::int], (?::text[])[1 + floor(power(random(), 2) * 200)::int], (?::text[])[1 + floor(random() * 200)::int]],
                    floor(random() * 12)::int, (?::text[])[1 + floor(random() * 10)::int], (ARRAY['onsite','hybrid','fully_remote'])[1 + floor(random() * 3)::int]
               FROM users u WHERE u.role = 'seeker'`,
            [VOCABULARY, VOCABULARY, VOCABULARY, CITIES],
          );
          await knex.raw(
            `INSERT INTO queue_entries (id, user_id, status, live_event_id, live_event_slug, entered_at)
             SELECT gen_random_uuid(), u.id, 'waiting', e.id, e.slug, now() - (u.rn || ' seconds')::interval
               FROM (SELECT id, row_number() OVER (ORDER BY id) AS rn FROM users WHERE role = 'seeker') u
               LEFT JOIN LATERAL (SELECT id, slug FROM live_events WHERE u.rn % 2 = 1 ORDER BY id OFFSET (u.rn % ?) LIMIT 1) e ON true`,
            [events],
          );
          await knex.raw('ANALYZE');
          const timings: RoundTimings[] = [];
          const totals: number[] = [];
          let offered = 0;
          const activities = createMatchmakingActivities({
            knex,
            client: temporal,
            accountsRepository: repos.accounts,
            matchmakingRepository: repos.matchmaking,
            config: { ...base, TEMPORAL_TASK_QUEUE: 'bench-scale' },
            log: { info: (o: object) => 'timings' in o && timings.push((o as { timings: RoundTimings }).timings), warn: () => undefined },
          });
          for (let r = 0; r < repeat; r++) {
            const t0 = performance.now();
            const res = await activities.runMatchingRound({ batchSize: MATCHMAKER_BATCH_SIZE });
            totals.push(performance.now() - t0);
            offered = res.offered;
          }
          const f = (k: keyof RoundTimings) => median(timings.map((x) => x[k])).toFixed(0);
          const line = `| ${jobs.toLocaleString('en')} | ${w.toLocaleString('en')} | ${Math.min(w, MATCHMAKER_BATCH_SIZE)} | ${offered} | ${f('planMs')} | ${f('holdMs')} | ${f('offerMs')} | ${median(totals).toFixed(0)} |`;
          rows.push(line);
          log(line);
        }
      } finally {
        await knex.destroy();
      }
    }
    await connection.close();
  } finally {
    await infra.stop();
  }
  console.log(`\nOne matching round (median of ${repeat}; load average ${os.loadavg().map((x) => x.toFixed(1)).join(' ')} at the end, ${os.cpus().length} CPUs)`);
  console.log('| jobs | waiting | considered | offered | plan ms | hold ms | offer ms | round ms |');
  console.log('|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  process.exit(0);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
