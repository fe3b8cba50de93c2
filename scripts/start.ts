import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { appSecret, ConfigError, loadConfig } from '../lib/config';
import { startInfrastructure, redactUrl, type Infrastructure } from '../lib/stack';
import { TemporalCliUnavailableError } from '../lib/temporal-server';
import { createKnex, migrateLatest } from '../db/knex';
import { seedDemoData, DEMO_PASSWORD } from './demo-data';
import { openServices } from './services';
import { portInUse } from '../lib/postgres-server';

/**
 * `npm start`: the whole service on one machine — Temporal dev server (or TEMPORAL_ADDRESS),
 * embedded PostgreSQL (or DATABASE_URL), migrations, demo data, the worker and the API as
 * separate processes. Ctrl-C stops everything it started.
 */
const ROOT = path.resolve(__dirname, '..');
const log = (line: string) => console.log(`[start] ${line}`);

async function main() {
  const t0 = Date.now();
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  if (await portInUse(config.PORT)) {
    console.error(`Port ${config.PORT} (PORT) is already in use: is another npm start running? Stop it or set PORT.`);
    process.exit(1);
  }

  let infra: Infrastructure | undefined;
  const children: ChildProcess[] = [];
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    log('stopping…');
    await Promise.all(
      children.map(
        (c) =>
          new Promise<void>((resolve) => {
            if (c.exitCode !== null || c.signalCode !== null) return resolve();
            c.once('exit', () => resolve());
            c.kill('SIGTERM');
            setTimeout(() => c.kill('SIGKILL'), 35_000).unref();
          }),
      ),
    );
    await infra?.stop();
    log('stopped');
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  try {
    infra = await startInfrastructure({ config, log, persistent: true });
  } catch (err) {
    console.error(err instanceof TemporalCliUnavailableError ? err.message : `Could not start the infrastructure: ${(err as Error).message}`);
    process.exit(1);
  }

  const knex = createKnex(infra.databaseUrl, 2);
  try {
    const applied = await migrateLatest(knex);
    log(applied.length ? `migrations applied: ${applied.join(', ')}` : 'migrations: up to date');
  } finally {
    await knex.destroy();
  }
  const seeding = openServices(config, { databaseUrl: infra.databaseUrl, temporalAddress: infra.temporalAddress });
  try {
    var demo = await seedDemoData(seeding.services);
  } finally {
    await seeding.close();
  }

  const env = { ...process.env, JOBFAIR_SUPERVISED: '1', APP_SECRET: appSecret(config), DATABASE_URL: infra.databaseUrl, TEMPORAL_ADDRESS: infra.temporalAddress, ...(infra.temporalUiUrl ? { TEMPORAL_UI_URL: infra.temporalUiUrl } : {}) };
  // `node --import tsx` keeps each process a direct child of this one (no tsx wrapper in between),
  // so signals reach it and it can notice when this supervisor is gone.
  const run = (name: string, entry: string) => {
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, entry)], { env, stdio: ['ignore', 'inherit', 'inherit'] });
    child.once('exit', (code, signal) => {
      if (!stopping) {
        console.error(`[start] the ${name} exited unexpectedly (${signal ?? `code ${code}`}); stopping everything`);
        void stop(1);
      }
    });
    children.push(child);
  };
  run('worker', 'apps/worker/src/main.ts');
  run('API', 'apps/api/src/server.ts');

  const readyUrl = `http://127.0.0.1:${config.PORT}/readyz`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const res = await fetch(readyUrl);
      if (res.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      console.error(`[start] ${readyUrl} did not answer 200 within 120 s`);
      return stop(1);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  const base = config.publicBaseUrl;
  console.log(
    [
      '',
      `Job fair is up (ready in ${((Date.now() - t0) / 1000).toFixed(1)} s).`,
      `  Web app:      ${base}/`,
      `  API:          ${base}/api/v1`,
      `  OpenAPI:      ${base}/api/v1/openapi.json`,
      `  Temporal UI:  ${infra.temporalUiUrl ?? '(external Temporal: see TEMPORAL_UI_URL)'}`,
      `  PostgreSQL:   ${redactUrl(infra.databaseUrl)}`,
      '',
      `  Demo seeker    ${demo.seekerEmail} / ${DEMO_PASSWORD}`,
      `    token (all scopes): ${demo.seekerToken}`,
      `  Demo recruiter ${demo.recruiterEmail} / ${DEMO_PASSWORD}`,
      `    token (all scopes): ${demo.recruiterToken}`,
      '',
      `  Try: curl -s -X POST -H "Authorization: Bearer ${demo.seekerToken}" ${base}/api/v1/queue/join`,
      '  Ctrl-C stops everything.',
      '',
    ].join('\n'),
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
