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
  /** `app.inject` with a bearer token and JSON body. */
  call: (
    opts: InjectOptions & { token?: string },
  ) => Promise<LightMyRequestResponse & { body: string; json: <T = any>() => T }>;
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
export async function createHarness(opts: { env?: Record<string, string>; worker?: boolean } = {}): Promise<Harness> {
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

  const harness: Harness = {
    config,
    knex,
    temporal,
    app,
    worker,
    dbUrl,
    call: async ({ token, headers, ...rest }) => {
      const res = await app.inject({
        ...rest,
        headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(headers ?? {}) },
      });
      return Object.assign(res, { json: <T>() => JSON.parse(res.body) as T });
    },
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
