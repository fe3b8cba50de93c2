import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';

/**
 * `npm run build:dist`: the production build the Dockerfile runs (docs/decisions/0152). TypeScript
 * compiled to CommonJS JavaScript in dist/ (tsconfig.build.json: the service's code, no tests or
 * scripts), the files it reads at run time copied beside it, and the workflow bundle built once
 * (dist/workflow-bundle.js, and dist/workflow-bundle-traced.js with the tracing interceptors), so a
 * worker starts with `node` alone: no tsx, no webpack at start.
 */
const ROOT = path.resolve(__dirname, '..');
// `--out <dir>` builds elsewhere (the build test); the compiled code finds its files relative to itself.
const outArg = process.argv.indexOf('--out');
const DIST = outArg > 0 ? path.resolve(process.argv[outArg + 1]) : path.join(ROOT, 'dist');
// `--bundle-only` rebuilds only the workflow bundle of an existing build; `--workflow-interceptor <file>`
// adds a workflow interceptor module to it (the chaos run's changed workflow, decision 0265).
const bundleOnly = process.argv.includes('--bundle-only');
const interceptorArg = process.argv.indexOf('--workflow-interceptor');
const extraInterceptors = interceptorArg > 0 ? [path.resolve(process.argv[interceptorArg + 1])] : [];

async function main() {
  const t0 = Date.now();
  if (!bundleOnly) await compile();
  // webpack's statistics arrive as warnings: only errors are worth a line.
  const logger = { trace() {}, debug() {}, info() {}, warn() {}, error: console.error, log() {} };
  const workflowsPath = path.join(DIST, 'workflows', 'index.js');
  const { code } = await bundleWorkflowCode({
    workflowsPath,
    logger,
    ...(extraInterceptors.length ? { workflowInterceptorModules: extraInterceptors } : {}),
  });
  fs.writeFileSync(path.join(DIST, 'workflow-bundle.js'), code);
  // The same workflows with the OpenTelemetry interceptors, for a worker with tracing on (decision 0263).
  const traced = await bundleWorkflowCode({
    workflowsPath,
    logger,
    workflowInterceptorModules: [
      ...extraInterceptors,
      require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors'),
    ],
  });
  fs.writeFileSync(path.join(DIST, 'workflow-bundle-traced.js'), traced.code);
  console.log(
    `${path.relative(ROOT, DIST) || DIST}/ built in ${((Date.now() - t0) / 1000).toFixed(1)} ` +
      `s: node dist/apps/api/src/server.js | node dist/apps/worker/src/main.js | node ` +
      `dist/db/cli.js migrate`,
  );
}

/** TypeScript to CommonJS in DIST, with the files the code reads at run time. */
async function compile() {
  fs.rmSync(DIST, { recursive: true, force: true });
  const tsc = spawnSync(
    process.execPath,
    [require.resolve('typescript/bin/tsc'), '-p', path.join(ROOT, 'tsconfig.build.json'), '--outDir', DIST],
    { stdio: 'inherit' },
  );
  if (tsc.status !== 0) process.exit(tsc.status ?? 1);
  writeSubpathImports();
  fs.cpSync(path.join(ROOT, 'apps/api/src/web/static'), path.join(DIST, 'apps/api/src/web/static'), {
    recursive: true,
  });
  fs.mkdirSync(path.join(DIST, 'docs'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'docs/api-changelog.json'), path.join(DIST, 'docs/api-changelog.json'));
}

/**
 * The source imports `#lib/config` and friends (package.json "imports", Node's subpath imports);
 * the compiled tree gets its own package.json mapping the same names to the compiled files, so
 * `node dist/...` resolves them wherever the build is put (the nearest package.json wins).
 */
function writeSubpathImports(): void {
  const { imports } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    imports: Record<string, string>;
  };
  const compiled = Object.fromEntries(
    Object.entries(imports).map(([name, target]) => [name, target.replace(/\.ts$/, '.js')]),
  );
  fs.writeFileSync(
    path.join(DIST, 'package.json'),
    `${JSON.stringify({ private: true, imports: compiled }, null, 2)}\n`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
