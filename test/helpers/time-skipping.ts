import { setTimeout as sleep } from 'node:timers/promises';
import { randomBytes } from 'node:crypto';
import { Client } from '@temporalio/client';
import { temporal as proto } from '@temporalio/proto';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { resolveTemporalTestServer, startTemporalTestServer, type RunningTestServer } from '#dev/temporal-test-server';
import { SEARCH_ATTRIBUTES } from '#dev/temporal-server';
import { WORKFLOWS_PATH } from '#apps/worker/src/worker';

/**
 * Workflow unit tests at production durations: the real workflow code on the Java time-skipping
 * test server (dev/temporal-test-server.ts), with stubbed activities and no PostgreSQL. One
 * server per test file; workflows in a file run one after the other (time skipping is global to
 * the server).
 */
export interface TimeSkipping {
  env: TestWorkflowEnvironment;
  /**
   * A plain client on the same server: its `result()` does not unlock time skipping (the
   * environment's client does, and then the server may skip past other workflows' timers too).
   */
  client: Client;
  server: RunningTestServer;
  /** Server ("workflow") time now. */
  now: () => Promise<number>;
  /** A worker on a fresh task queue running `fn`, shut down after it (also when it throws). */
  withWorker: <T>(activities: object, fn: (taskQueue: string) => Promise<T>) => Promise<T>;
  teardown: () => Promise<void>;
}

const log = (l: string) => {
  if (process.env.TEST_VERBOSE) console.log(`[time-skipping] ${l}`);
};

/**
 * The SDK's public `createTimeSkipping()` starts the server itself, but gives an `existing-path`
 * executable only 5 s to answer, which a cold JVM on a loaded 2-core machine can miss; its public
 * `createFromExistingServer()` turns time skipping off. So we start the server with our own
 * deadline and then call the SDK's private `TestWorkflowEnvironment.create` (the one both public
 * constructors use) with `supportsTimeSkipping: true` and `server: { type: 'existing' }`. This is
 * the only non-public SDK path we use; if an SDK upgrade removes it, this throws with that message.
 */
async function connectTimeSkipping(address: string): Promise<TestWorkflowEnvironment> {
  const create = (
    TestWorkflowEnvironment as unknown as {
      create?: (opts: Record<string, unknown>) => Promise<TestWorkflowEnvironment>;
    }
  ).create;
  if (typeof create !== 'function')
    throw new Error(
      '@temporalio/testing no longer has TestWorkflowEnvironment.create: adapt ' +
        'test/helpers/time-skipping.ts to the SDK',
    );
  const env = await create.call(TestWorkflowEnvironment, {
    server: { type: 'existing' },
    address,
    namespace: 'default',
    supportsTimeSkipping: true,
  });
  if (!env.supportsTimeSkipping) throw new Error('the test environment does not skip time');
  return env;
}

export async function createTimeSkipping(): Promise<TimeSkipping> {
  try {
    Runtime.install({ logger: new DefaultLogger('WARN') });
  } catch {
    /* already installed in this jest worker process */
  }
  const resolved = await resolveTemporalTestServer({ log });
  if (resolved.fetchMs !== undefined)
    console.log(
      `[time-skipping] fetched the test server ${resolved.version} from Maven Central in ` +
        `${(resolved.fetchMs / 1000).toFixed(1)} s (cached for next time in ${resolved.dir})`,
    );
  const server = await startTemporalTestServer({ server: resolved, log });
  let env: TestWorkflowEnvironment | undefined;
  try {
    env = await connectTimeSkipping(server.address);
    // The workflows upsert our Keyword search attributes; the test server knows none at start
    // (and implements AddSearchAttributes but not ListSearchAttributes).
    await env.connection.operatorService.addSearchAttributes({
      namespace: env.namespace ?? 'default',
      searchAttributes: Object.fromEntries(
        SEARCH_ATTRIBUTES.map((sa) => [sa, proto.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD]),
      ),
    });
  } catch (e) {
    await env?.teardown();
    await server.stop();
    throw e;
  }
  // dev/test.ts bundles the workflows once per run; a run of jest alone bundles them here.
  const bundle = process.env.JOBFAIR_TEST_WORKFLOW_BUNDLE;
  const ready = env;
  const running = new Set<{ worker: Worker; run: Promise<unknown> }>();
  return {
    env: ready,
    client: new Client({ connection: ready.connection, namespace: ready.namespace ?? 'default' }),
    server,
    now: () => ready.currentTimeMs(),
    withWorker: async (activities, fn) => {
      const taskQueue = `ts-${randomBytes(4).toString('hex')}`;
      const worker = await Worker.create({
        connection: ready.nativeConnection,
        namespace: ready.namespace ?? 'default',
        taskQueue,
        ...(bundle ? { workflowBundle: { codePath: bundle } } : { workflowsPath: WORKFLOWS_PATH }),
        activities,
      });
      const run = worker.runUntil(fn(taskQueue));
      running.add({ worker, run });
      try {
        return await run;
      } finally {
        running.forEach((r) => r.worker === worker && running.delete(r));
      }
    },
    teardown: async () => {
      // A test that timed out leaves its worker polling: stop it, or jest waits on it for ever.
      for (const { worker, run } of running) {
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await run.catch(() => undefined);
      }
      await ready.teardown();
      await server.stop();
    },
  };
}

/** Durations (ms) of the timers a workflow started, in order, read from its history. */
export function timerDurations(history: proto.api.history.v1.IHistory): number[] {
  return (history.events ?? [])
    .map((ev) => ev.timerStartedEventAttributes?.startToFireTimeout)
    .filter((d): d is NonNullable<typeof d> => !!d)
    .map((d) => Number(d.seconds ?? 0) * 1000 + Math.round((d.nanos ?? 0) / 1e6));
}

/** Polls until `check` returns a truthy value; a deadline instead of a fixed sleep. */
export async function until<T>(
  check: () => Promise<T | undefined | null | false> | T | undefined | null | false,
  what: string,
  timeoutMs = 30_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await sleep(25);
  }
}
