/**
 * The join rows of the performance table: POST /queue/join, keyed, at 1 and 20 concurrent seekers,
 * against its ceiling measured in the same run (a bare update-with-start of a workflow whose update
 * answers at once), interleaved round by round. One implementation for the dev-server table
 * (bench/suite.ts: straight to its API) and the production shape (bench/cluster.ts: through the
 * load balancer).
 */
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { Client, Connection, WithStartWorkflowOperation } from '@temporalio/client';
import { bundleWorkflowCode, NativeConnection, Worker as TemporalWorker } from '@temporalio/worker';
import { loadConfig } from '#lib/config';
import { buildApp } from '#apps/api/src/app';
import { bareJoinUpdate, type bareJoinWorkflow } from './bare-workflows';
import { waitFor as waitForEvery } from './infra';
import { runCases } from './runner';
import { seedEvent } from './seed';
import { median, percentile } from './stats';
import type { Row } from './table';

export interface Seeker {
  id: string;
  token: string;
}

/** Where the joins go: the seekers, how one joins over HTTP, and the Temporal the ceiling runs on. */
export interface JoinTarget {
  temporalAddress: string;
  seekers: Seeker[];
  joinHttp: (s: { token: string }) => Promise<void>;
}

/** Joins per round at 1 and at 20 concurrent seekers, as the table takes them (`--quick`: fewer). */
export const joinSamples = (quick: boolean) => ({ one: quick ? 12 : 40, twenty: quick ? 40 : 120 });

export interface JoinOptions {
  rounds: number;
  /** Joins per round at 1 and at 20 concurrent seekers. */
  samples: { one: number; twenty: number };
  log: (line: string) => void;
}

/** Seekers the join rows need: the 20 that wait first, `rounds` × the samples, and a margin. */
export const seekersFor = (o: Pick<JoinOptions, 'rounds' | 'samples'>) =>
  20 + o.rounds * (o.samples.one + o.samples.twenty) + 10;

/** A keyed POST /queue/join into the hold event at `base` (an API, or the load balancer). */
export const joinOver =
  (base: string, holdSlug: string) =>
  async (seeker: { token: string }): Promise<void> => {
    const res = await fetch(`${base}/api/v1/queue/join`, {
      method: 'POST',
      headers: { authorization: `Bearer ${seeker.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ live_event_slug: holdSlug }),
    });
    if (res.status !== 200) throw new Error(`join ${res.status}: ${await res.text()}`);
    await res.arrayBuffer();
  };

/** The table's processes start slower than a single bench's (several at once, a larger data set). */
const waitFor = (what: string, check: () => Promise<boolean>) =>
  waitForEvery(what, check, { timeoutMs: 180_000, everyMs: 250 });

/**
 * Seekers with tokens, waiting in a private event with no interview slots (no match moves them;
 * the status answer still computes position, outlook and estimate over real rows).
 */
export async function seedSeekers(
  knex: Knex,
  env: Record<string, string>,
  seekerCount: number,
  log: (line: string) => void,
): Promise<{ seekers: Seeker[]; holdSlug: string }> {
  const seedApp = await buildApp({ config: loadConfig({}, { ...env, PORT: '0' }), knex, logger: false });
  const accounts = seedApp.services.deps.repos.accounts;
  const team = await accounts.insertTeam('Bench hold team');
  const hold = await seedEvent(knex, team.id, {
    slug: 'bench-hold',
    company: 'Hold',
    visibility: 'private',
    status: 'live',
    slots: 0,
    startedNow: true,
  });
  await knex.raw(
    `INSERT INTO jobs (team_id, live_event_id, title, essential_skills, bonus_skills, experience_min, remote_preference)
     SELECT ?, ?, 'Hold job ' || g, ARRAY['TypeScript','PostgreSQL'], ARRAY['Go'], g % 5, 'remote' FROM generate_series(1, 20) g`,
    [team.id, hold.id],
  );
  const seekers: Seeker[] = [];
  const t = Date.now();
  for (let i = 0; i < seekerCount; i++) {
    const u = await accounts.insertUser({
      email: `suite-seeker-${i}@bench.local`,
      display_name: `Seeker ${i}`,
      role: 'seeker',
    });
    await seedApp.services.accounts.profiles.completeOnboarding(u.id, {
      full_name: `Seeker ${i}`,
      title: 'Engineer',
      skills: ['TypeScript', i % 2 ? 'Go' : 'Python'],
      experience_years: i % 10,
    });
    const tok = await seedApp.services.accounts.tokens.mint(u.id, {
      name: `bench ${i}`,
      scopes: ['queue:read', 'queue:write'],
    });
    seekers.push({ id: u.id, token: tok.token });
  }
  await seedApp.close();
  log(`${seekerCount} seekers with tokens in ${((Date.now() - t) / 1000).toFixed(1)} s`);
  return { seekers, holdSlug: hold.slug };
}

/** The first 20 seekers join and wait (the status rows poll them); this also warms the worker up. */
export async function joinFirstSeekers(s: JoinTarget): Promise<void> {
  await waitFor('worker', async () => {
    await s.joinHttp(s.seekers[0]);
    return true;
  });
  for (const seeker of s.seekers.slice(1, 20)) await s.joinHttp(seeker);
}

/** Latencies of `n` calls of `fn`, `concurrency` at a time, and how many finished per second. */
async function timed(
  n: number,
  concurrency: number,
  fn: () => Promise<void>,
): Promise<{ lat: number[]; perSecond: number }> {
  const lat: number[] = [];
  let left = n;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (left-- > 0) {
        const t1 = performance.now();
        await fn();
        lat.push(performance.now() - t1);
      }
    }),
  );
  return { lat, perSecond: (n * 1000) / (performance.now() - t0) };
}

/** A worker of its own for the bare update-with-start (the join's ceiling); `stop` ends it. */
export async function startBareJoin(
  temporalAddress: string,
): Promise<{ bareJoin: () => Promise<void>; stop: () => Promise<void> }> {
  const connection = await Connection.connect({ address: temporalAddress });
  const client = new Client({ connection });
  const bundle = await bundleWorkflowCode({
    workflowsPath: require.resolve('./bare-workflows'),
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error },
  });
  const bareWorker = await TemporalWorker.create({
    connection: await NativeConnection.connect({ address: temporalAddress }),
    taskQueue: 'bench-bare',
    workflowBundle: { code: bundle.code },
  });
  const bareRun = bareWorker.run();
  const bareJoin = async () => {
    await client.workflow.executeUpdateWithStart(bareJoinUpdate, {
      args: [{ agentIdentity: 'bench' }],
      startWorkflowOperation: new WithStartWorkflowOperation<typeof bareJoinWorkflow>('bareJoinWorkflow', {
        workflowId: `bare-join-${randomUUID()}`,
        taskQueue: 'bench-bare',
        workflowIdConflictPolicy: 'USE_EXISTING',
      }),
    });
  };
  const stop = async () => {
    bareWorker.shutdown();
    await bareRun;
    await connection.close();
  };
  return { bareJoin, stop };
}

/** Joins: ours through HTTP vs a bare update-with-start, interleaved round by round. */
export async function joinRows(s: JoinTarget, o: JoinOptions): Promise<Row[]> {
  const { bareJoin, stop } = await startBareJoin(s.temporalAddress);
  await bareJoin();
  let nextSeeker = 20;
  const levels = [
    [1, o.samples.one],
    [20, o.samples.twenty],
  ] as const;
  const runs = await runCases(
    levels.map(([c, n]) => ({
      name: String(c),
      run: async () => ({
        ours: await timed(n, c, () => s.joinHttp(s.seekers[nextSeeker++])),
        bare: await timed(n, c, bareJoin),
      }),
    })),
    {
      rounds: o.rounds,
      onResult: (c, { ours, bare }, r) =>
        o.log(
          `round ${r + 1} join ×${c.name}: p50 ${percentile(ours.lat, 50).toFixed(0)} / p99 ` +
            `${percentile(ours.lat, 99).toFixed(0)} ms vs bare ${percentile(bare.lat, 50).toFixed(0)} / ` +
            `${percentile(bare.lat, 99).toFixed(0)} ms`,
        ),
    },
  );
  const rows: Row[] = [];
  for (const [c, r] of runs) {
    const [ours, bare] = [r.map((x) => x.ours.lat), r.map((x) => x.bare.lat)];
    const [oursRate, bareRate] = [median(r.map((x) => x.ours.perSecond)), median(r.map((x) => x.bare.perSecond))];
    const [o50, o99, b50, b99] = [
      median(ours.map((x) => percentile(x, 50))),
      median(ours.map((x) => percentile(x, 99))),
      median(bare.map((x) => percentile(x, 50))),
      median(bare.map((x) => percentile(x, 99))),
    ];
    rows.push({
      section: 'queue',
      name: `POST /queue/join, ${c} concurrent seeker${c === '1' ? '' : 's'} vs bare update-with-start`,
      unit: 'ms p99',
      ours: o99,
      ceiling: b99,
      ratio: o99 / b99,
      oursP50: o50,
      oursP99: o99,
      ceilingP50: b50,
      ceilingP99: b99,
      target: '≤ 2× (p99)',
      note:
        `p50 ratio ${(o50 / b50).toFixed(2)}×; ${ours[0].length} joins per round; ` +
        `${oursRate.toFixed(1)} vs ${bareRate.toFixed(1)} per second`,
    });
  }
  await stop();
  return rows;
}
