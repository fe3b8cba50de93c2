import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { createHarness, type Harness, type TestUser } from '../helpers/harness';
import { processEnv, startApi, type RunningProcess } from '../helpers/processes';
import { liveEvent, createJob } from '../events/helpers';

const ROOT = path.resolve(__dirname, '..', '..');
/** Installed by `.ci/run` (and by `npm test` when missing): a local virtual environment, never the system's. */
export const SCHEMATHESIS = process.env.SCHEMATHESIS_BIN ?? path.join(ROOT, '.ci', 'venv', 'bin', 'schemathesis');
const SEED = Number(process.env.FUZZ_SEED ?? 16);
const MAX_EXAMPLES = Number(process.env.FUZZ_MAX_EXAMPLES ?? 8);
const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'response_headers_conformance',
];

function run(args: string[], timeoutMs: number): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn(SCHEMATHESIS, args, {
      cwd: ROOT,
      env: { ...process.env, NO_COLOR: '1', SCHEMATHESIS_HOOKS: '' },
    });
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

/**
 * Fuzzing the served OpenAPI document with schemathesis (decision 0164): a seeded, bounded run per
 * role (a seeker's and a recruiter's token, every scope), against a real API process and worker.
 * Zero 5xx, zero answers outside the documented statuses, content types, headers and schemas.
 */
describe('schemathesis against the served OpenAPI document', () => {
  let h: Harness;
  let api: RunningProcess | undefined;
  let base: string;
  let seeker: TestUser;
  let recruiter: TestUser;

  beforeAll(async () => {
    if (!fs.existsSync(SCHEMATHESIS))
      throw new Error(
        `schemathesis not found at ${SCHEMATHESIS}: run .ci/run, or python3.11 -m venv .ci/venv && ` +
          `.ci/venv/bin/pip install -r .ci/requirements-fuzz.txt`,
      );
    h = await createHarness();
    seeker = await h.seeker();
    recruiter = await h.recruiter();
    // Something to find: a live event with a job.
    const ev = await liveEvent(h, recruiter);
    await createJob(h, recruiter, ev.id);
    // Limits high enough that the fuzzer exercises the routes rather than the rate limiter (429 is tested elsewhere).
    const p = await processEnv(h, {
      RATE_LIMIT_READ_PER_MIN: '100000',
      RATE_LIMIT_WRITE_PER_MIN: '100000',
      RATE_LIMIT_COST_PER_MIN: '100000',
      RATE_LIMIT_PUBLIC_PER_MIN: '100000',
      LOG_LEVEL: 'error',
    });
    base = p.base;
    api = await startApi(p.env, base);
  }, 120_000);

  afterAll(async () => {
    if (api && api.exitCode === null) api.kill('SIGKILL');
    await h?.close();
  });

  it.each([
    ['seeker', () => seeker],
    ['recruiter', () => recruiter],
  ] as const)(
    '%s token: no 5xx, no status, content-type, header or schema violation',
    async (role, who) => {
      const reportDir = path.join(ROOT, 'test-artifacts', 'fuzz', role);
      fs.mkdirSync(reportDir, { recursive: true });
      const args = [
        'run',
        `${base}/api/v1/openapi.json`,
        '--url',
        base,
        '--checks',
        CHECKS.join(','),
        '--seed',
        String(SEED),
        '--max-examples',
        String(MAX_EXAMPLES),
        '--phases',
        'examples,coverage,fuzzing',
        '--header',
        `Authorization: Bearer ${who().token}`,
        '--request-timeout',
        '15',
        '--workers',
        '1',
        '--report',
        'junit',
        '--report-dir',
        reportDir,
        // No example database in the working tree: every run is the seeded run, not a replay of old finds.
        '--generation-database',
        'none',
        '--suppress-health-check',
        'all',
        '--no-color',
      ];
      const r = await run(args, 600_000);
      fs.writeFileSync(path.join(reportDir, 'output.txt'), r.out);
      if (r.code !== 0)
        throw new Error(`schemathesis (${role}) exit ${r.code}; report in ${reportDir}\n${r.out.slice(-12_000)}`);
      expect(r.out).toMatch(/passed/);
    },
    660_000,
  );
});
