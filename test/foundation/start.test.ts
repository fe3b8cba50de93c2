import { setTimeout as sleep } from 'node:timers/promises';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '#dev/ports';
import { portInUse } from '#dev/postgres-server';

const ROOT = path.resolve(__dirname, '..', '..');

/** The README's first command, on free ports and a temporary DATA_DIR. */
function npmStart(env: Record<string, string>): ChildProcess & { output: () => string } {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'dev', 'start.ts')], {
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  return Object.assign(child, { output: () => out });
}

async function waitForOutput(child: ReturnType<typeof npmStart>, re: RegExp, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!re.test(child.output())) {
    if (child.exitCode !== null) throw new Error(`npm start exited ${child.exitCode}:\n${child.output()}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${re}:\n${child.output()}`);
    await sleep(200);
  }
}

const exitOf = (c: ChildProcess) =>
  c.exitCode !== null
    ? Promise.resolve(c.exitCode)
    : new Promise<number | null>((r) => c.once('exit', (code) => r(code)));

describe('npm start', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-start-'));
  fs.chmodSync(dataDir, 0o755);
  let env: Record<string, string>;
  let ports: number[];
  let metricsPort: number;

  beforeAll(async () => {
    ports = [await freePort(), await freePort(), await freePort(), await freePort()];
    // The API's metrics port; the worker's is the next one (npm start's convention).
    metricsPort = await freePort();
    env = {
      METRICS_PORT: String(metricsPort),
      DATA_DIR: dataDir,
      PORT: String(ports[0]),
      EMBEDDED_PG_PORT: String(ports[1]),
      TEMPORAL_PORT: String(ports[2]),
      TEMPORAL_UI_PORT: String(ports[3]),
      DATABASE_URL: '',
      TEMPORAL_ADDRESS: '',
    };
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it('brings everything up, prints the URLs and a demo token, and stops everything on Ctrl-C', async () => {
    const child = npmStart(env);
    try {
      await waitForOutput(child, /Job fair is up/, 120_000);
      const out = child.output();
      expect(out).toContain(`Web app:      http://localhost:${ports[0]}/`);
      expect(out).toContain(`OpenAPI:      http://localhost:${ports[0]}/api/v1/openapi.json`);
      expect(out).toContain(`Temporal UI:  http://localhost:${ports[3]}`);
      expect(out).toContain('Live now:     Acme Compilers, Northwind Logistics, Helios Health (3 open-invite events)');
      const token = /agent token \(seeker preset, until \d{4}-\d\d-\d\d\): (svc_\w+)/.exec(out)![1];
      // The banner's Try: the demo seeker's matches (the simulator's agent joined her queue).
      const res = await fetch(`http://127.0.0.1:${ports[0]}/api/v1/matches`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.status).toBe(200);
      const live = (await (await fetch(`http://127.0.0.1:${ports[0]}/api/v1/live-events/live-now`)).json()) as {
        events: unknown[];
      };
      expect(live.events).toHaveLength(3);
      // The Temporal Web UI answers on its port.
      expect((await fetch(`http://127.0.0.1:${ports[3]}/`)).status).toBe(200);
      // The banner's metrics listeners answer: the API's RED histogram, the worker's activities
      // and the Temporal SDK's own metrics on the worker's scrape.
      expect(out).toContain(`Metrics:      http://127.0.0.1:${metricsPort}/metrics (API)`);
      const api = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
      expect(api).toContain('jobfair_http_request_duration_seconds_count{route="/api/v1/matches",method="GET"');
      const worker = await (await fetch(`http://127.0.0.1:${metricsPort + 1}/metrics`)).text();
      expect(worker).toMatch(/^jobfair_activity_executions_total\{/m);
      expect(worker).toMatch(/^temporal_workflow_task_schedule_to_start_latency_bucket\{/m);
    } finally {
      child.kill('SIGINT');
    }
    expect(await exitOf(child)).toBe(0);
    for (const p of ports) expect(await portInUse(p)).toBe(false);
  }, 180_000);

  it('keeps state across restarts and recovers from a crashed run (SIGKILL) without a hang', async () => {
    const first = npmStart(env);
    await waitForOutput(first, /Job fair is up/, 120_000);
    first.kill('SIGKILL');
    await exitOf(first);
    // The orphaned API and worker notice their supervisor is gone and free the port within ~1 s;
    // PostgreSQL and Temporal, orphaned too, are stopped by the next start through their pid files.
    const deadline = Date.now() + 20_000;
    while ((await portInUse(ports[0])) && Date.now() < deadline) await sleep(200);
    expect(await portInUse(ports[0])).toBe(false);
    const second = npmStart(env);
    try {
      await waitForOutput(second, /Job fair is up/, 120_000);
      expect(second.output()).toMatch(/migrations: up to date/);
      expect(second.output()).toMatch(/left running by a previous run/);
    } finally {
      second.kill('SIGINT');
    }
    expect(await exitOf(second)).toBe(0);
  }, 240_000);

  it('explains a port that is taken instead of hanging', async () => {
    // The previous run's API has let go of the port (a condition with a deadline, not a fixed pause).
    const deadline = Date.now() + 20_000;
    while ((await portInUse(ports[0])) && Date.now() < deadline) await sleep(100);
    expect(await portInUse(ports[0])).toBe(false);
    const net = await import('node:net');
    const blocker = net.createServer().listen(ports[0], '127.0.0.1');
    await new Promise((r) => blocker.once('listening', r));
    try {
      const child = npmStart(env);
      expect(await exitOf(child)).toBe(1);
      expect(child.output()).toMatch(new RegExp(`Port ${ports[0]} \\(PORT\\) is already in use`));
    } finally {
      blocker.close();
    }
  }, 60_000);
});
