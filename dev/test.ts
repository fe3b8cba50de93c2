import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { loadConfig } from '#lib/config';
import { startThrowawayInfrastructure } from './stack';
import { ensureDatabase } from './postgres-server';
import { createKnex, migrateLatest } from '#db/knex';
import { WORKFLOWS_PATH } from '#apps/worker/src/worker';
import { TEMPLATE_DB } from '#test/helpers/env';
import { defaultCacheDir } from './temporal-server';
import { resolveStripeMock, startStripeMock, type RunningStripeMock } from './stripe-mock';
import { resolveLiveKitServer } from './livekit-server';
import { existingJaeger, resolveJaeger } from './trace-store';

/**
 * `npm test`: tsc and ESLint first (see lint()), then isolated PostgreSQL and Temporal dev server
 * on free ports (in a temp dir, in memory), a migrated template database, the workflow bundle built
 * once, then every jest suite (arguments are passed to jest). Everything is torn down; the exit
 * code is jest's.
 */
const ROOT = path.resolve(__dirname, '..');
const log = (l: string) => {
  if (process.env.TEST_VERBOSE) console.log(`[test] ${l}`);
};

/**
 * The browser tests drive Debian's chromium, the relayed interview-room test Debian's coturn, the
 * alert rules' tests promtool (Debian's prometheus), and the cluster test nginx, Prometheus and
 * nginx's exporter.
 * A newcomer's `npm test` must need nothing else, so when one is missing and this is a root shell
 * with apt (our machines, CI), install it once.
 */
function ensureDebianPackage(pkg: string, wanted: string, override: string, why: string): void {
  if (fs.existsSync(wanted)) return;
  const canApt = process.getuid?.() === 0 && fs.existsSync('/usr/bin/apt-get');
  if (!canApt) {
    console.error(`[test] ${why} need ${wanted}: install Debian's ${pkg} (apt-get install ${pkg}) or set ${override}`);
    process.exit(1);
  }
  console.log(`[test] installing Debian ${pkg} for ${why} (once per machine)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  for (const args of [
    ['update', '-qq'],
    ['install', '-y', '-qq', pkg],
  ]) {
    const r = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
    if (r.status !== 0) {
      console.error(
        `[test] apt-get ${args.join(' ')} failed (exit ${r.status}); install ${pkg} by hand or set ${override}`,
      );
      process.exit(1);
    }
  }
}

function ensureDebianPackages(): void {
  ensureDebianPackage(
    'chromium',
    process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    'CHROMIUM_PATH',
    'the browser tests',
  );
  ensureDebianPackage(
    'coturn',
    process.env.TURNSERVER_BIN ?? '/usr/bin/turnserver',
    'TURNSERVER_BIN',
    'the relayed interview-room tests',
  );
  ensureDebianPackage(
    'prometheus',
    process.env.PROMTOOL_BIN ?? '/usr/bin/promtool',
    'PROMTOOL_BIN',
    "the alert rules' checks and unit tests (promtool)",
  );
  ensureDebianPackage(
    'nginx-light',
    process.env.NGINX_BIN ?? '/usr/sbin/nginx',
    'NGINX_BIN',
    "the cluster's load balancer config check (nginx -t) and the cluster test",
  );
  ensureDebianPackage(
    'prometheus-nginx-exporter',
    process.env.NGINX_EXPORTER_BIN ?? '/usr/bin/prometheus-nginx-exporter',
    'NGINX_EXPORTER_BIN',
    "the cluster test (the load balancer's metrics)",
  );
}

/**
 * Static checks before any infrastructure starts, so a finding fails in under a minute instead of
 * after the suite: `tsc --noEmit`, then ESLint with type information (eslint.config.js: floating
 * and misused promises, the workflow sandbox's import rules), then Prettier's check (`npm run
 * format` fixes what it finds). The plain `npm test` (CI) always runs them. A targeted run (`npm test -- some/file.test.ts`) skips them, since it is an inner
 * loop where 30–60 s of whole-tree checking would dominate; TEST_LINT=1 runs them there too.
 */
function lint(jestArgs: readonly string[]): void {
  if (jestArgs.length > 0 && process.env.TEST_LINT !== '1') {
    console.log('[test] lint: skipped for a targeted run (TEST_LINT=1 runs it; npm run lint runs it alone)');
    return;
  }
  const steps: Array<[string, string[]]> = [
    ['tsc', ['-p', 'tsconfig.json', '--noEmit']],
    ['eslint', ['.']],
    ['prettier', ['--check', '--log-level', 'warn', '.']],
  ];
  for (const [bin, args] of steps) {
    const t = Date.now();
    const r = spawnSync(path.join(ROOT, 'node_modules', '.bin', bin), args, { cwd: ROOT, stdio: 'inherit' });
    const took = `${((Date.now() - t) / 1000).toFixed(1)} s`;
    if (r.status !== 0) {
      console.error(
        `[test] lint: ${bin} ${args.join(' ')} failed (${r.error ? r.error.message : `exit ${r.status ?? r.signal}`}) ` +
          `after ${took}; nothing was started`,
      );
      process.exit(1);
    }
    console.log(`[test] lint: ${bin} ${args.join(' ')} clean in ${took}`);
  }
}

/**
 * The CI virtual environment, .ci/venv (a local one, never the system's): schemathesis for the fuzz suite
 * (test/platform/fuzz.test.ts, pinned in .ci/requirements-fuzz.txt) and the Python client's generator, runtime
 * dependencies and pytest (test/platform/python-client.test.ts, .ci/requirements-python-client.txt). `.ci/run`
 * installs them; a plain `npm test` on a fresh clone does too when Python 3.11 is there, so the suites need
 * nothing by hand. Each requirements file is installed when its marker executable is missing.
 */
function ensureCiVenv(): void {
  const venv = path.join(ROOT, '.ci', 'venv');
  const wanted: Array<{ marker: string; requirements: string; why: string; skip?: boolean }> = [
    {
      marker: path.join(venv, 'bin', 'schemathesis'),
      requirements: 'requirements-fuzz.txt',
      why: 'schemathesis for the fuzz suite',
      skip: Boolean(process.env.SCHEMATHESIS_BIN),
    },
    {
      marker: path.join(venv, 'bin', 'openapi-python-client'),
      requirements: 'requirements-python-client.txt',
      why: 'the Python client suite (openapi-python-client, httpx, pytest)',
      skip: Boolean(process.env.JOBFAIR_PYTHON),
    },
  ];
  const missing = wanted.filter((w) => !w.skip && !fs.existsSync(w.marker));
  if (missing.length === 0) return;
  const python = ['python3.11', 'python3'].find((p) => spawnSync(p, ['--version'], { stdio: 'ignore' }).status === 0);
  if (!python) {
    console.error(`[test] ${missing.map((m) => m.why).join(' and ')} need Python 3.11 (.ci/run installs it)`);
    return;
  }
  const steps: Array<[string, string[]]> = [];
  if (!fs.existsSync(path.join(venv, 'bin', 'pip'))) steps.push([python, ['-m', 'venv', venv]]);
  for (const m of missing) {
    console.log(`[test] installing ${m.why} into .ci/venv (once)…`);
    steps.push([path.join(venv, 'bin', 'pip'), ['install', '-q', '-r', path.join(ROOT, '.ci', m.requirements)]]);
  }
  for (const [cmd, args] of steps) {
    const r = spawnSync(cmd, args, { stdio: ['ignore', 'ignore', 'inherit'] });
    if (r.status !== 0) {
      console.error(`[test] ${cmd} ${args.join(' ')} failed (exit ${r.status}); the suites will say how to install it`);
      return;
    }
  }
}

async function main() {
  const t0 = Date.now();
  lint(process.argv.slice(2));
  ensureDebianPackages();
  ensureCiVenv();
  const base = loadConfig({
    ...process.env,
    NODE_ENV: 'test',
    TEMPORAL_ADDRESS: process.env.TEST_TEMPORAL_ADDRESS ?? '',
  });
  const infra = await startThrowawayInfrastructure({ config: base, log, prefix: 'jobfair-test' });
  let code = 1;
  let stripeMock: RunningStripeMock | null = null;
  try {
    // The Stripe adapter's tests run against stripe-mock (decision 0131), built once per machine like the Temporal CLI.
    const mock = await startStripeMock(
      await resolveStripeMock({ cacheDir: defaultCacheDir(base.CACHE_DIR), log: (l) => console.log(`[test] ${l}`) }),
    );
    stripeMock = mock;
    // The LiveKit room test's server (VIDEO_PROVIDER=livekit), built once per machine like the
    // Temporal CLI (minutes on a cold machine, then cached): here for the whole suite (CI) and runs
    // that name it, so the build is not inside a test's time limit; other runs never need it.
    const jestArgs = process.argv.slice(2);
    const liveKitBin =
      jestArgs.length === 0 || jestArgs.some((a) => /livekit/i.test(a))
        ? await resolveLiveKitServer({
            cacheDir: defaultCacheDir(base.CACHE_DIR),
            log: (l) => console.log(`[test] ${l}`),
          })
        : undefined;
    // The tracing test's trace store (Jaeger; decision 0263): a run naming the test builds it once per
    // machine; the whole suite uses it when it is already here and otherwise does not wait for its
    // build (2,300 Go packages, far longer than the suite), an OTLP receiver standing in.
    const jaegerBin = jestArgs.some((a) => /tracing/i.test(a))
      ? await resolveJaeger({ cacheDir: defaultCacheDir(base.CACHE_DIR), log: (l) => console.log(`[test] ${l}`) })
      : jestArgs.length === 0
        ? existingJaeger(defaultCacheDir(base.CACHE_DIR))
        : undefined;
    const adminUrl = infra.adminDatabaseUrl ?? infra.databaseUrl;
    await ensureDatabase(adminUrl, TEMPLATE_DB);
    const templateUrl = adminUrl.replace(/\/[^/?]+(\?|$)/, `/${TEMPLATE_DB}$1`);
    const knex = createKnex(templateUrl, 1);
    await migrateLatest(knex);
    await knex.destroy();
    const bundle = await bundleWorkflowCode({
      workflowsPath: WORKFLOWS_PATH,
      logger: { log() {}, trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error },
    });
    const bundlePath = path.join(infra.dir, 'workflow-bundle.js');
    fs.writeFileSync(bundlePath, bundle.code);
    console.log(
      `[test] PostgreSQL and Temporal up, template migrated, workflows bundled in ` +
        `${((Date.now() - t0) / 1000).toFixed(1)} s`,
    );

    code = await new Promise<number>((resolve) => {
      const jest = spawn(path.join(ROOT, 'node_modules', '.bin', 'jest'), process.argv.slice(2), {
        stdio: 'inherit',
        env: {
          ...process.env,
          NODE_ENV: 'test',
          JOBFAIR_TEST_ADMIN_DB_URL: adminUrl,
          JOBFAIR_TEST_TEMPORAL_ADDRESS: infra.temporalAddress,
          JOBFAIR_TEST_WORKFLOW_BUNDLE: bundlePath,
          JOBFAIR_TEST_STRIPE_MOCK_URL: mock.url,
          ...(liveKitBin ? { JOBFAIR_TEST_LIVEKIT_BIN: liveKitBin } : {}),
          ...(jaegerBin ? { JOBFAIR_TEST_JAEGER_BIN: jaegerBin } : {}),
        },
      });
      jest.once('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0)));
    });
  } finally {
    await stripeMock?.stop();
    await infra.stop();
  }
  console.log(`[test] finished in ${((Date.now() - t0) / 1000).toFixed(1)} s, exit ${code}`);
  process.exit(code);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
