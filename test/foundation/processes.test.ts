import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { freePort } from '#dev/ports';
import { testEnv } from '../helpers/env';
import { queueEntryWorkflowId } from '#workflows/queue/contract';

const ROOT = path.resolve(__dirname, '..', '..');

/** `node --import tsx` (as npm start does): the child is the process itself, so a kill reaches it. */
function runProcess(entry: string, env: Record<string, string>): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, entry)], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return Object.assign(child, { output: () => out });
}

function exitOf(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** The API and the worker as separate real processes, talking over real HTTP and gRPC. */
describe('API and worker processes', () => {
  let h: Harness;
  let api: ReturnType<typeof runProcess> | undefined;
  let worker: ReturnType<typeof runProcess> | undefined;
  let base: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    // No in-process worker: the worker process does the work.
    h = await createHarness({ worker: false });
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    env = {
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      PORT: String(port),
      PUBLIC_BASE_URL: base,
      DATABASE_URL: h.dbUrl,
      TEMPORAL_ADDRESS: testEnv().temporalAddress,
      TEMPORAL_TASK_QUEUE: h.config.TEMPORAL_TASK_QUEUE,
      APP_SECRET: h.config.APP_SECRET!,
    };
    api = runProcess('apps/api/src/server.ts', env);
    worker = runProcess('apps/worker/src/main.ts', { ...env, LOG_LEVEL: 'info' });
    await eventually(async () => (await fetch(`${base}/readyz`)).status === 200, 60_000, 200);
  }, 90_000);

  afterAll(async () => {
    for (const c of [api, worker]) if (c && c.exitCode === null) c.kill('SIGKILL');
    await h?.close();
  });

  it('serves /healthz and /readyz, and joins the queue end to end over HTTP', async () => {
    expect(await (await fetch(`${base}/healthz`)).json()).toEqual({ status: 'ok' });
    const ready = await (await fetch(`${base}/readyz`)).json();
    expect(ready).toEqual({ status: 'ready', checks: { postgres: { status: 'ok' }, temporal: { status: 'ok' } } });

    const s = await h.seeker();
    const res = await fetch(`${base}/api/v1/queue/join`, {
      method: 'POST',
      headers: { authorization: `Bearer ${s.token}` },
    });
    expect(res.status).toBe(200);
    const body = (await res.json()) as any;
    expect(body.status).toBe('waiting');
    expect(res.headers.get('x-ratelimit-limit')).toBe('30');

    // Operators find it by search attribute (what the Temporal UI queries).
    const found = await eventually(async () => {
      const ids: string[] = [];
      for await (const wf of h.temporal.workflow.list({
        query: `JobfairEntity = "queue_entry" AND JobfairUserId = "${s.user.id}"`,
      }))
        ids.push(wf.workflowId);
      return ids.length > 0 && ids;
    });
    expect(found).toEqual([`queue-entry:${s.user.id}`]);
  });

  it('the worker stops gracefully on SIGTERM and a restarted worker carries on the same workflows', async () => {
    await eventually(async () => /worker running/.test(worker!.output()), 60_000, 100);
    worker!.kill('SIGTERM');
    expect(await exitOf(worker!)).toBe(0);
    expect(worker!.output()).toMatch(/shutting down/);

    // With no worker, a join is accepted by Temporal but cannot complete; it completes once a worker
    // is back. The API's Temporal calls have a deadline (TEMPORAL_CALL_TIMEOUT_MS, decision 0180): if
    // the worker takes longer to come back, the join answers 503 DEPENDENCY_UNAVAILABLE and a retry
    // with the same Idempotency-Key gets the entry.
    const s = await h.seeker();
    const key = randomUUID();
    const join = () =>
      fetch(`${base}/api/v1/queue/join`, {
        method: 'POST',
        headers: { authorization: `Bearer ${s.token}`, 'idempotency-key': key },
      });
    const pending = join();
    // The join has reached Temporal (its entry workflow exists) while no worker runs.
    await eventually(
      async () =>
        (await h.temporal.workflow.getHandle(queueEntryWorkflowId(s.user.id)).describe()).status.name === 'RUNNING',
      30_000,
      100,
    );
    worker = runProcess('apps/worker/src/main.ts', env);
    let res = await pending;
    if (res.status === 503) {
      expect(((await res.json()) as { code: string }).code).toBe('DEPENDENCY_UNAVAILABLE');
      res = await eventually(
        async () => {
          const again = await join();
          return again.status === 200 ? again : (await again.arrayBuffer(), null);
        },
        60_000,
        500,
      );
    }
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).status).toBe('waiting');
    expect(await h.knex('queue_entries').where({ user_id: s.user.id, status: 'waiting' }).first()).toBeDefined();
  });

  it('the API stops cleanly on SIGINT', async () => {
    api!.kill('SIGINT');
    expect(await exitOf(api!)).toBe(0);
  });
});

describe('readiness when dependencies are down', () => {
  it('answers 503 DEPENDENCY_UNAVAILABLE naming PostgreSQL and Temporal', async () => {
    const { buildApp } = await import('#apps/api/src/app');
    const { loadConfig } = await import('#lib/config');
    const [pgPort, tPort] = [await freePort(), await freePort()];
    const config = loadConfig(
      {},
      {
        NODE_ENV: 'test',
        LOG_LEVEL: 'silent',
        DATABASE_URL: `postgres://x:y@127.0.0.1:${pgPort}/none`,
        TEMPORAL_ADDRESS: `127.0.0.1:${tPort}`,
        APP_SECRET: 'x'.repeat(32),
      },
    );
    const app = await buildApp({ config, logger: false });
    try {
      const res = await app.inject({ method: 'GET', url: '/readyz' });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBeDefined();
      const body = res.json();
      expect(body.code).toBe('DEPENDENCY_UNAVAILABLE');
      expect(body.error).toMatch(/PostgreSQL and Temporal/);
      expect(body.details.checks.postgres.status).toBe('unavailable');
      expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});
