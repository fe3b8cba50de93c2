import type { ChildProcess } from 'node:child_process';
import type { Client } from '@temporalio/client';
import type { Config } from '#lib/config';
import type { DemoFair } from '#apps/demo/src/demo-data';
import type { openServices } from '#apps/ops/src/services';
import type { startDemoSimulator } from '#apps/demo/src/demo-simulator';
import type { startDemoWebhookReceiver } from '#apps/demo/src/demo-webhooks';
import type { Infrastructure } from '../stack';
import type { Step } from '../steps';

export const log = (line: string) => console.log(`[start] ${line}`);

/**
 * What `npm start` has started and how it stops: the demo's helpers (`beforeStop`, in the order
 * they started), then the API and the worker (they drain), then Temporal and PostgreSQL.
 */
export interface Supervisor {
  readonly stopping: boolean;
  /** The API's and the worker's processes. */
  readonly children: ChildProcess[];
  /** Stopped first, in order: the demo's simulator and receiver, TURN, LiveKit, the trace store. */
  readonly beforeStop: Array<() => Promise<void>>;
  /** The servers, once started (stopped last). */
  infra: Infrastructure | undefined;
  /** The servers while they start: a stop then waits for them. */
  infraStarting: Promise<Infrastructure> | undefined;
  /** Stops everything started, once, and exits with `code`. */
  stop: (code: number) => Promise<void>;
}

/** One `npm start` run: what the steps have found and started so far, each field set by the step named. */
export class StartContext {
  readonly t0 = Date.now();
  constructor(readonly supervisor: Supervisor) {}
  /** configuration */
  config!: Config;
  /** configuration: the demo's webhook receiver runs (loopback targets allowed). */
  demoWebhooks = false;
  /** metrics ports */
  metricsPorts!: { api: number; worker: number };
  /** infrastructure */
  infra!: Infrastructure;
  /** demo seeding: the services the demo fair is set up through, closed once it is live. */
  seeding!: ReturnType<typeof openServices>;
  demo!: DemoFair;
  /** TURN, LiveKit, trace store: the environment they give the API and the worker. */
  serverEnv: Record<string, string> = {};
  traceQueryUrl: string | null = null;
  /** worker and API: when both must be ready by. */
  readyDeadline = 0;
  /** worker polls: a client of the Temporal server, closed before the banner. */
  temporal!: { client: Client; close: () => Promise<void> };
  receiver: Awaited<ReturnType<typeof startDemoWebhookReceiver>> | null = null;
  simulator: Awaited<ReturnType<typeof startDemoSimulator>> | null = null;
}

export type StartStep = Step<StartContext>;
