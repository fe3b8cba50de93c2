import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes, randomUUID } from 'node:crypto';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import type { Knex } from 'knex';
import { Client } from '@temporalio/client';
import { connectClosable } from '#lib/temporal-connection';
import { Client as PgClient } from 'pg';
import { loadConfig, type Config } from '#lib/config';
import { createKnex } from '#db/knex';
import { buildApp } from '#apps/api/src/app';
import { startWorker, type StartedWorker } from '#apps/worker/src/worker';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import type { UserRow } from '#db/accounts/accounts-repository';
import { SCOPES, type Scope } from '#lib/scopes';
import { TEMPLATE_DB, testEnv } from './env';
import { sendWithRetry, withIdempotencyKey, type ClientRetryOptions } from './client-retry';
import { createLoad } from './load';

export interface TestUser {
  user: UserRow;
  token: string;
  teamId: string | null;
  /** Mints another token for this user with the given scopes. */
  tokenWith: (scopes: readonly Scope[], opts?: { name?: string; expiresAt?: Date }) => Promise<string>;
}

export interface Harness {
  config: Config;
  knex: Knex;
  temporal: Client;
  app: FastifyInstance;
  worker: StartedWorker | null;
  dbUrl: string;
  /**
   * `app.inject` with a bearer token and JSON body, as a real client sends it: every mutating
   * request carries an Idempotency-Key, and a 503 or 429 is retried after its Retry-After
   * (test/helpers/client-retry.ts; `retry: false` to see the first answer).
   */
  call: (
    opts: InjectOptions & { token?: string } & ClientRetryOptions,
  ) => Promise<LightMyRequestResponse & { body: string; json: <T = any>() => T }>;
  /**
   * Runs load beside the test (pollers, extra rounds, loops) that `close` stops first: `signal` is
   * aborted when closing starts, and `close` waits for the task before it closes the app.
   */
  background: <T>(task: (signal: AbortSignal) => Promise<T>) => Promise<T>;
  /** Aborted when `close` starts: loops the test drives end on it. */
  signal: AbortSignal;
  /**
   * A small pool of the test process's own, for load it drives beside the app (extra matching
   * rounds), as a second process has its own pool: it never takes the app's request connections.
   */
  sideKnex: () => Knex;
  seeker: (opts?: {
    onboarded?: boolean;
    scopes?: readonly Scope[];
    profile?: Record<string, unknown>;
  }) => Promise<TestUser>;
  recruiter: (opts?: { teamId?: string; scopes?: readonly Scope[] }) => Promise<TestUser>;
  /** A new database from the template, for tests that need a second API process on the same DB. */
  close: () => Promise<void>;
}

/**
 * One per test file: a fresh database cloned from the migrated template, a unique task queue,
 * an in-process worker on the real Temporal dev server, and the real Fastify app.
 */
export async function createHarness(
  opts: {
    env?: Record<string, string>;
    worker?: boolean;
    /** Defaults for `call`: `{ retry: false }` for suites about the 503/429 answers themselves. */
    client?: ClientRetryOptions;
  } = {},
): Promise<Harness> {
  const env = testEnv();
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    /* already installed in this jest worker process */
  }
  const dbName = `t_${randomBytes(6).toString('hex')}`;
  const admin = new PgClient({ connectionString: env.adminDbUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${dbName} TEMPLATE ${TEMPLATE_DB}`);
  } finally {
    await admin.end();
  }
  const dbUrl = env.adminDbUrl.replace(/\/[^/?]+(\?|$)/, `/${dbName}$1`);
  const config = loadConfig(
    {},
    {
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATABASE_URL: dbUrl,
      TEMPORAL_ADDRESS: env.temporalAddress,
      TEMPORAL_TASK_QUEUE: `test-${dbName}`,
      PUBLIC_BASE_URL: 'http://jobfair.test',
      // inject() sends Host: localhost:80; the browser harness turns the canonical redirect on.
      CANONICAL_HOST_REDIRECT: 'false',
      APP_SECRET: 'test-secret-test-secret-test-secret-0123',
      WEBHOOK_ALLOW_LOOPBACK: 'true',
      // Tests read the first attempt's outcome from the test send's answer; a loaded machine must not
      // turn it into `pending` (decision 0202). Tests of the bounded wait set it low.
      WEBHOOK_TEST_WAIT_MS: '60000',
      DATABASE_POOL_MAX: '10',
      // Suites that are not about billing run several live events per team; test/billing sets the real limit (1).
      BILLING_FREE_MAX_LIVE_EVENTS: '1000',
      ...opts.env,
    },
  );
  const knex = createKnex(dbUrl, config.DATABASE_POOL_MAX);
  const connection = await connectClosable({ address: env.temporalAddress });
  const temporal = new Client({ connection: connection.connection, namespace: config.TEMPORAL_NAMESPACE });
  // The worker has its own pool, as the separate worker process has in production.
  const workerKnex = opts.worker === false ? null : createKnex(dbUrl, config.DATABASE_POOL_MAX);
  const worker = workerKnex
    ? await startWorker({
        config,
        knex: workerKnex,
        address: env.temporalAddress,
        workflowBundle: { codePath: env.workflowBundle },
        shutdownGraceTime: '2 seconds',
      })
    : null;
  // Only 5xx are logged (level error) — to stderr, so a failure in CI shows its cause.
  const app = await buildApp({ config: { ...config, LOG_LEVEL: 'error' }, knex, temporal, logger: true });

  // The app's own composition root: the same repositories and services the routes use.
  const accounts = app.services.deps.repos.accounts;
  const { profiles, tokens } = app.services.accounts;
  const mint = async (userId: string, scopes: readonly Scope[], o: { name?: string; expiresAt?: Date } = {}) =>
    (
      await tokens.mint(userId, {
        name: o.name ?? `test token ${randomUUID().slice(0, 8)}`,
        scopes,
        expiresAt: o.expiresAt,
      })
    ).token;

  const load = createLoad();
  let sideKnex: Knex | undefined;
  const harness: Harness = {
    config,
    knex,
    temporal,
    app,
    worker,
    dbUrl,
    call: ({ token, headers, retry, idempotencyKey, ...rest }) =>
      load.track(async () => {
        const sent = withIdempotencyKey(
          rest.method,
          { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(headers ?? {}) },
          { idempotencyKey: idempotencyKey ?? opts.client?.idempotencyKey },
        );
        const res = await sendWithRetry(() => app.inject({ ...rest, headers: sent as InjectOptions['headers'] }), {
          retry: retry ?? opts.client?.retry,
          signal: load.signal,
        });
        return Object.assign(res, { json: <T>() => JSON.parse(res.body) as T });
      }),
    background: (task) => load.track(() => task(load.signal)),
    signal: load.signal,
    sideKnex: () => (sideKnex ??= createKnex(dbUrl, 4)),
    seeker: async (o = {}) => {
      const n = randomBytes(4).toString('hex');
      const user = await accounts.insertUser({
        email: `seeker-${n}@test.local`,
        display_name: `Seeker ${n}`,
        role: 'seeker',
      });
      if (o.onboarded !== false) {
        await profiles.completeOnboarding(user.id, {
          full_name: `Seeker ${n}`,
          title: 'Engineer',
          skills: ['TypeScript', 'PostgreSQL'],
          experience_years: 5,
          ...(o.profile ?? {}),
        } as never);
      }
      const fresh = (await accounts.findUserById(user.id))!;
      return {
        user: fresh,
        teamId: null,
        token: await mint(user.id, o.scopes ?? SCOPES),
        tokenWith: (s, x) => mint(user.id, s, x),
      };
    },
    recruiter: async (o = {}) => {
      const n = randomBytes(4).toString('hex');
      const user = await accounts.insertUser({
        email: `recruiter-${n}@test.local`,
        display_name: `Recruiter ${n}`,
        role: 'recruiter',
      });
      const teamId = o.teamId ?? (await accounts.insertTeam(`Team ${n}`)).id;
      await accounts.addMember(teamId, user.id, o.teamId ? 'member' : 'owner');
      await profiles.completeOnboarding(user.id, { full_name: `Recruiter ${n}`, title: 'Recruiter' });
      const fresh = (await accounts.findUserById(user.id))!;
      return {
        user: fresh,
        teamId,
        token: await mint(user.id, o.scopes ?? SCOPES),
        tokenWith: (s, x) => mint(user.id, s, x),
      };
    },
    close: async () => {
      // The load first: a request still running when the app closes would meet a destroyed pool
      // (knex: "Unable to acquire a connection") or a closed Temporal channel and fail for a reason
      // that is not the test's.
      await load.stop();
      await sideKnex?.destroy();
      await app.close();
      await worker?.shutdown();
      await connection.close();
      await workerKnex?.destroy();
      await knex.destroy();
      const a = new PgClient({ connectionString: env.adminDbUrl });
      await a.connect();
      try {
        await a.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`);
      } finally {
        await a.end();
      }
    },
  };
  return harness;
}

/** Polls until `check` returns a truthy value (workflows project asynchronously). */
export async function eventually<T>(
  check: () => Promise<T | undefined | null | false>,
  timeoutMs = 15_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await check();
      if (v) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > deadline)
      throw new Error(`condition not met within ${timeoutMs} ms${last ? `: ${(last as Error).message}` : ''}`);
    await sleep(intervalMs);
  }
}
