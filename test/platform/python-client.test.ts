import { spawn } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createHarness, type Harness } from '../helpers/harness';
import { listen } from './mcp/helpers';
import { createJob, createLiveEvent, kick } from '../matches/fixtures';
import { buildEnvelope, signatureHeaders } from '#domain/webhooks/signing';
import { generatePackage, CLIENT_DIR, PACKAGE } from '#clients/python/scripts/generate';

const ROOT = path.resolve(__dirname, '..', '..');
/** The CI virtual environment (.ci/run, or `npm test` when missing, installs .ci/requirements-python-client.txt). */
const PYTHON = process.env.JOBFAIR_PYTHON ?? path.join(ROOT, '.ci', 'venv', 'bin', 'python');

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number) {
  return new Promise<{ code: number | null; out: string }>((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env } });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (out += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, out });
    });
  });
}

/** Every file under dir (relative path → content), without Python's caches. */
function tree(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      if (e.name === '__pycache__' || e.name === '.ruff_cache') continue;
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else files.set(path.relative(dir, p), fs.readFileSync(p, 'utf8'));
    }
  };
  if (fs.existsSync(dir)) walk(dir);
  return files;
}

function requirePython() {
  if (!fs.existsSync(PYTHON))
    throw new Error(
      `${PYTHON} not found: run .ci/run, or python3.11 -m venv .ci/venv && ` +
        `.ci/venv/bin/pip install -r .ci/requirements-python-client.txt`,
    );
}

describe('the Python client: generated package', () => {
  // Default configuration: the document's descriptions name the configured rate limits.
  let d: Harness;
  beforeAll(async () => {
    d = await createHarness({ worker: false });
  });
  afterAll(async () => d?.close());

  it('clients/python/jobfair_api is what openapi-python-client makes of the served document (drift test)', async () => {
    requirePython();
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-pyclient-drift-'));
    try {
      const docFile = path.join(tmp, 'openapi.json');
      fs.writeFileSync(docFile, (await d.call({ method: 'GET', url: '/api/v1/openapi.json' })).body);
      const fresh = tree(generatePackage(docFile, path.join(tmp, 'out')));
      // UPDATE_PYTHON_CLIENT=1 rewrites the package from the test stack (same as `npm run client:generate:python`).
      if (process.env.UPDATE_PYTHON_CLIENT === '1') generatePackage(docFile, CLIENT_DIR);
      const committed = tree(path.join(CLIENT_DIR, PACKAGE));
      const differing = [...new Set([...fresh.keys(), ...committed.keys()])]
        .filter((f) => fresh.get(f) !== committed.get(f))
        .sort();
      if (differing.length > 0)
        throw new Error(
          `clients/python/${PACKAGE} is out of date with GET /api/v1/openapi.json (${differing.length} file(s) ` +
            `differ: ${differing.slice(0, 10).join(', ')}): run UPDATE_PYTHON_CLIENT=1 npm test -- ` +
            `test/platform/python-client.test.ts (or npm run client:generate:python against a running service)`,
        );
      expect(fresh.has('webhook_events.py')).toBe(true);
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('the Python client (clients/python) against the real stack: pytest', () => {
  let h: Harness;
  let base: string;
  beforeAll(async () => {
    h = await createHarness({
      env: {
        MATCHMAKER_INTERVAL_MS: '50',
        QUEUE_ENTRY_TTL_MS: '600000',
        MATCH_ACCEPT_WINDOW_MS: '600000',
      },
    });
    base = await listen(h);
  });
  afterAll(async () => h?.close());

  it('runs clients/python/tests green: agent flow, idempotency, Retry-After, pagination, webhook signatures', async () => {
    requirePython();
    const rec = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 1, visibility: 'open_invite' });
    await createJob(h, { event, title: 'Python Client Engineer', essential_skills: ['PostgreSQL'] });
    const s = await h.seeker();
    const flow = await h.seeker();
    const rate = await h.seeker();
    // A delivery signed by the service's own signing code, with two secrets as during a rotation.
    const t = Math.floor(Date.now() / 1000);
    const eventId = 'evt_python_vector';
    const payload = buildEnvelope({
      id: eventId,
      type: 'webhook.test',
      createdAtMs: t * 1000,
      data: { webhook_id: 'wh_1', message: 'This is a test event from Job Fair.', test: true },
    });
    const secrets = ['svc_whsec_python_old_secret', 'svc_whsec_python_new_secret'];
    const vector = { payload, t, event_id: eventId, secrets, headers: signatureHeaders(secrets, eventId, t, payload) };

    // The matchmaker runs on its own schedule; nudging it keeps the flow short.
    let done = false;
    const nudger = (async () => {
      while (!done) {
        await kick(h).catch(() => undefined);
        await sleep(200);
      }
    })();
    const reportDir = path.join(ROOT, 'test-artifacts', 'python-client');
    fs.mkdirSync(reportDir, { recursive: true });
    let r: { code: number | null; out: string };
    try {
      r = await run(
        PYTHON,
        [
          '-m',
          'pytest',
          'clients/python/tests',
          '-p',
          'no:cacheprovider',
          '-rA',
          '--junitxml',
          path.join(reportDir, 'junit.xml'),
        ],
        {
          PYTHONDONTWRITEBYTECODE: '1',
          JOBFAIR_BASE_URL: base,
          JOBFAIR_TOKEN: s.token,
          JOBFAIR_FLOW_TOKEN: await flow.tokenWith(['queue:read', 'queue:write', 'matches:read']),
          JOBFAIR_RATE_TOKEN: await rate.tokenWith(['profile:read', 'profile:write']),
          JOBFAIR_SKILL: 'PostgreSQL',
          JOBFAIR_EVENT_SLUG: event.slug,
          JOBFAIR_SIGNING_VECTOR: JSON.stringify(vector),
        },
        240_000,
      );
    } finally {
      done = true;
      await nudger;
    }
    fs.writeFileSync(path.join(reportDir, 'output.txt'), r.out);
    if (r.code !== 0) throw new Error(`pytest exit ${r.code}; report in ${reportDir}\n${r.out.slice(-12_000)}`);
    expect(r.out).toMatch(/\b10 passed\b/);
    expect(r.out).not.toMatch(/skipped|xfail/);
  }, 300_000);
});
