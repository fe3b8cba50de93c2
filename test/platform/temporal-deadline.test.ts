import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { createHarness, eventually, type Harness, type TestUser } from '../helpers/harness';
import { processEnv, startApi, type RunningProcess } from '../helpers/processes';
import { freePort } from '#dev/ports';
import {
  defaultCacheDir,
  resolveTemporalCli,
  startDevServer,
  type DevServerOptions,
  type RunningDevServer,
} from '#dev/temporal-server';
import { connectClosable } from '#lib/temporal-connection';
import { webhookSubscriptionWorkflowId } from '#workflows/webhooks/contract';

/**
 * Deadlines on the API's Temporal calls (decision 0180). A real API process on its own Temporal dev
 * server (SQLite file, so a stopped server restarts with its state). With Temporal stopped, a keyed
 * POST /webhooks answers 503 DEPENDENCY_UNAVAILABLE once TEMPORAL_CALL_TIMEOUT_MS (2 s here) is
 * spent — before, the SDK's retries held the request (and its Idempotency-Key) ~20 s — and the key is
 * free: a retry with it runs again instead of 409 IDEMPOTENCY_KEY_IN_USE. After Temporal is back a
 * retry with the key succeeds, with one subscription row and one subscription workflow.
 */
describe('Temporal call deadlines in the API', () => {
  let h: Harness;
  let rec: TestUser;
  let api: RunningProcess | undefined;
  let temporal: RunningDevServer | undefined;
  let tOpts: DevServerOptions;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-deadline-'));

  beforeAll(async () => {
    h = await createHarness({ worker: false });
    rec = await h.recruiter();
    const cli = resolveTemporalCli({
      temporalCli: process.env.TEMPORAL_CLI,
      cacheDir: defaultCacheDir(process.env.CACHE_DIR),
      log: () => undefined,
    });
    tOpts = {
      cli: cli.path,
      port: await freePort(),
      dbFile: path.join(dir, 'temporal.sqlite'),
      namespace: 'default',
      log: () => undefined,
    };
    temporal = await startDevServer(tOpts);
  }, 120_000);
  afterAll(async () => {
    if (api && api.exitCode === null) api.kill('SIGKILL');
    await temporal?.stop();
    await h?.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it(
    'a keyed request answers 503 within the deadline while Temporal is down, frees its key, ' +
      'and a retry after restart has one effect',
    async () => {
      const { env, base } = await processEnv(h, {
        TEMPORAL_ADDRESS: temporal!.address,
        TEMPORAL_CALL_TIMEOUT_MS: '2000',
        LOG_LEVEL: 'error',
      });
      api = await startApi(env, base);
      const key = randomUUID();
      const target = `http://127.0.0.1:9/deadline-${key}`;
      // A client that gives up after 8 s: without the deadline the API would still be retrying (~20 s).
      const send = () =>
        fetch(`${base}/api/v1/webhooks`, {
          method: 'POST',
          headers: { authorization: `Bearer ${rec.token}`, 'content-type': 'application/json', 'idempotency-key': key },
          body: JSON.stringify({ target_url: target, events: ['match.matched'] }),
          signal: AbortSignal.timeout(8_000),
        });

      await temporal!.stop();
      const down = await send();
      expect(down.status).toBe(503);
      expect(down.headers.get('retry-after')).toBeTruthy();
      expect(((await down.json()) as { code: string }).code).toBe('DEPENDENCY_UNAVAILABLE');
      // The key was released with the 503: a second try runs (503 again), not 409 IDEMPOTENCY_KEY_IN_USE.
      const again = await send();
      expect(again.status).toBe(503);
      await again.arrayBuffer();

      temporal = await startDevServer(tOpts);
      const ok = await eventually(
        async () => {
          const res = await send();
          const body = (await res.json()) as { id: string };
          return res.status === 201 ? body : null;
        },
        30_000,
        200,
      );

      const rows = await h.knex('webhook_subscriptions').where({ target_url: target }).select('id');
      expect(rows.map((r: { id: string }) => r.id)).toEqual([ok.id]);
      const conn = await connectClosable({ address: temporal!.address });
      try {
        const described = await conn.connection.workflowService.describeWorkflowExecution({
          namespace: 'default',
          execution: { workflowId: webhookSubscriptionWorkflowId(ok.id) },
        });
        expect(described.workflowExecutionInfo?.execution?.workflowId).toBe(webhookSubscriptionWorkflowId(ok.id));
        const runs = await conn.connection.workflowService.countWorkflowExecutions({
          namespace: 'default',
          query: `WorkflowId = '${webhookSubscriptionWorkflowId(ok.id)}'`,
        });
        expect(Number(runs.count)).toBe(1);
      } finally {
        await conn.close();
      }
      // And the key now replays the stored answer.
      const replay = await send();
      expect(replay.status).toBe(201);
      expect(replay.headers.get('idempotent-replayed')).toBe('true');
      expect(((await replay.json()) as { id: string }).id).toBe(ok.id);
    },
    180_000,
  );
});
