import { setTimeout as sleep } from 'node:timers/promises';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '#dev/ports';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * `npm start` as a newcomer sees it: under a pseudo-terminal (util-linux `script`), with the demo
 * fair and its simulator on. On a terminal every line is for humans — no JSON line at info or
 * above — and `LOG_FORMAT=json` turns JSON on even there (checked on the API process of the same
 * run: one npm start keeps the test near a minute on a loaded machine). Ctrl-C is typed into the terminal, as a
 * person would. Waits are conditions (the banner, a line), never sleeps.
 */
const ANSI = /\x1b\[[0-9;?]*[a-zA-Z]/g;

type PtyRun = ChildProcess & { output: () => string; lines: () => string[] };

function startInPty(entry: string[], env: Record<string, string>): PtyRun {
  const command = `exec ${JSON.stringify(process.execPath)} --import tsx ${JSON.stringify(path.join(ROOT, ...entry))}`;
  // -q quiet, -f flush each write, -e the command's exit status, -c the command; the typescript file is /dev/null.
  const child = spawn('script', ['-qfec', command, '/dev/null'], {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const lines = () =>
    out
      .replace(ANSI, '')
      .split(/\r?\n|\r/)
      .map((l) => l.trim())
      .filter(Boolean);
  return Object.assign(child, { output: () => out.replace(ANSI, ''), lines });
}

async function waitFor(
  run: PtyRun,
  what: string,
  test: (lines: string[]) => boolean,
  timeoutMs: number,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!test(run.lines())) {
    if (run.exitCode !== null)
      throw new Error(`npm start exited ${run.exitCode} before ${what}:\n${run.output().slice(-4000)}`);
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${run.output().slice(-4000)}`);
    await sleep(200);
  }
}

/** Ctrl-C typed into the terminal (the line discipline turns it into SIGINT for the foreground job). */
async function ctrlC(run: PtyRun): Promise<number | null> {
  const exited =
    run.exitCode !== null
      ? Promise.resolve(run.exitCode)
      : new Promise<number | null>((r) => run.once('exit', (code) => r(code)));
  run.stdin!.write('\x03');
  const timer = setTimeout(() => run.kill('SIGKILL'), 60_000);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}

/** A JSON log record at info or above (pino levels: 30 info, 40 warn, 50 error, 60 fatal). */
function jsonAtInfo(line: string): boolean {
  if (!line.startsWith('{')) return false;
  try {
    const rec = JSON.parse(line) as { level?: unknown };
    return typeof rec.level === 'number' && rec.level >= 30;
  } catch {
    return false;
  }
}

describe('npm start in a terminal', () => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-tty-'));
  let env: Record<string, string>;

  beforeAll(async () => {
    const ports = [await freePort(), await freePort(), await freePort(), await freePort()];
    env = {
      DATA_DIR: dataDir,
      PORT: String(ports[0]),
      EMBEDDED_PG_PORT: String(ports[1]),
      TEMPORAL_PORT: String(ports[2]),
      TEMPORAL_UI_PORT: String(ports[3]),
      DATABASE_URL: '',
      TEMPORAL_ADDRESS: '',
      LOG_LEVEL: 'info',
      LOG_FORMAT: 'auto',
      DEMO_SIMULATION: 'on',
      DEMO_SIMULATION_TICK_MS: '500',
      WEBHOOK_ALLOW_LOOPBACK: '',
    };
  });
  afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

  it(
    'prints readable lines only (no JSON at info) through the banner and the first demo ' +
      'webhook; LOG_FORMAT=json gives JSON on a terminal too',
    async () => {
      const run = startInPty(['dev', 'start.ts'], env);
      let api: PtyRun | null = null;
      try {
        await waitFor(run, 'the banner', (ls) => ls.some((l) => l.startsWith('Job fair is up')), 150_000);
        // The demo at work after the banner: the simulator's match reaches the demo webhook receiver.
        await waitFor(
          run,
          'a demo webhook delivery',
          (ls) => ls.some((l) => /webhook match\.matched received, signature verified/.test(l)),
          60_000,
        );
        const lines = run.lines();
        expect(lines.filter(jsonAtInfo)).toEqual([]);
        // The receiver's line, pretty-printed: a time, the level word, the logger's name and the sentence.
        expect(lines.some((l) => /INFO.*demo-webhooks: webhook match\.matched received/.test(l))).toBe(true);
        expect(lines.some((l) => /^Webhooks:\s+demo receiver at http:\/\/127\.0\.0\.1:\d+\//.test(l))).toBe(true);

        // LOG_FORMAT=json on a terminal: the same start code's API process (a second replica against
        // this run's PostgreSQL and Temporal — a whole second npm start would double the test's time).
        api = startInPty(['apps', 'api', 'src', 'server.ts'], {
          ...env,
          LOG_FORMAT: 'json',
          PORT: String(await freePort()),
          DATABASE_URL: `postgres://postgres:postgres@127.0.0.1:${env.EMBEDDED_PG_PORT}/jobfair`,
          TEMPORAL_ADDRESS: `127.0.0.1:${env.TEMPORAL_PORT}`,
        });
        await waitFor(api, 'a JSON log line at info', (ls) => ls.some(jsonAtInfo), 60_000);
      } finally {
        if (api) await ctrlC(api);
        const code = await ctrlC(run);
        // On a bad exit, show what npm start printed while stopping (the reason is there).
        expect({ code, output: code === 0 ? '' : run.output().slice(-6000) }).toEqual({ code: 0, output: '' });
      }
    },
    300_000,
  );
});
