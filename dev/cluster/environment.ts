import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { loadConfig } from '#lib/config';
import type { ClusterContext } from './context';

/** Every API's and worker's environment (the caller's `env` last), and the configuration it makes. */
export function processEnvironment(ctx: ClusterContext): void {
  ctx.env = {
    NODE_ENV: 'development',
    LOG_LEVEL: 'info',
    LOG_FORMAT: 'json',
    HOST: '127.0.0.1',
    PUBLIC_BASE_URL: ctx.base,
    DATABASE_URL: ctx.databaseUrl,
    TEMPORAL_ADDRESS: ctx.temporalAddress,
    TEMPORAL_NAMESPACE: 'default',
    APP_SECRET: randomBytes(32).toString('hex'),
    DATA_DIR: path.join(ctx.dir, 'data'),
    // The load balancer is the one hop in front: the client's address is what it saw.
    TRUST_PROXY: '1',
    // The demo's webhook receiver listens on loopback (never in production).
    WEBHOOK_ALLOW_LOOPBACK: 'true',
    JOBFAIR_SUPERVISED: '1',
    ...(ctx.otlp ? { OTEL_EXPORTER_OTLP_ENDPOINT: ctx.otlp } : {}),
    ...ctx.opts.env,
  };
  ctx.config = loadConfig({}, ctx.env);
}

/** The app's migrations by the compiled migrator, as the image's migrate job runs it. */
export function migrate(ctx: ClusterContext): void {
  const migrate = spawnSync(process.execPath, [path.join(ctx.dist, 'db/cli.js'), 'migrate'], {
    env: { ...process.env, ...ctx.env },
    encoding: 'utf8',
  });
  if (migrate.status !== 0) throw new Error(`migrations failed:\n${migrate.stdout}${migrate.stderr}`);
  ctx.log('migrations applied (node dist/db/cli.js migrate)');
}
