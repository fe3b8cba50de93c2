import path from 'node:path';
import { Connection } from '@temporalio/client';
import { freePort } from '../ports';
import { defaultCacheDir, registerSearchAttributes, resolveTemporalCli, startDevServer } from '../temporal-server';
import { startTemporalOnPostgres } from '../temporal-postgres';
import type { ClusterContext } from './context';

/** An external Temporal: its search attributes registered, nothing started. */
async function useExternal(ctx: ClusterContext, address: string): Promise<void> {
  const connection = await Connection.connect({ address });
  try {
    await registerSearchAttributes(connection, 'default');
  } finally {
    await connection.close();
  }
  ctx.log(`Temporal: external at ${address} (no server started)`);
}

/** The CLI's dev server (in memory), standing in for the server on PostgreSQL. */
async function startStandIn(ctx: ClusterContext): Promise<void> {
  const { log } = ctx;
  const cli = resolveTemporalCli({ cacheDir: defaultCacheDir(process.env.CACHE_DIR), log });
  const started = await startDevServer({
    cli: cli.path,
    port: await freePort(),
    namespace: 'default',
    log,
    ownProcessGroup: true,
  });
  ctx.devServer = started;
  ctx.supervisor.addStop('the Temporal dev server', started.stop);
  log(`Temporal: the CLI's dev server at ${started.address}, standing in for the server on PostgreSQL`);
}

/** The Temporal server on its own PostgreSQL, several history shards. */
async function startOnPostgres(ctx: ClusterContext): Promise<void> {
  ctx.temporal = await startTemporalOnPostgres({
    dir: path.join(ctx.dir, 'temporal'),
    cacheDir: defaultCacheDir(process.env.CACHE_DIR),
    namespace: 'default',
    log: ctx.log,
    historyShards: ctx.opts.historyShards ?? 4,
    metricsPort: ctx.temporalMetricsPort,
    ownProcessGroup: true,
    historyCacheMaxBytes: Number(process.env.TEMPORAL_HISTORY_CACHE_MB || 64) * 2 ** 20,
  });
  ctx.supervisor.addStop('Temporal and its PostgreSQL', ctx.temporal.stop);
}

/** 2. Temporal on its own PostgreSQL, its metrics on a port of its own (or the dev server, or an external one). */
export async function startTemporal(ctx: ClusterContext): Promise<void> {
  const { opts } = ctx;
  ctx.temporalMetricsPort = await freePort();
  if (opts.temporalAddress) await useExternal(ctx, opts.temporalAddress);
  else if (opts.temporalDevServer) await startStandIn(ctx);
  else await startOnPostgres(ctx);
  ctx.temporalAddress = ctx.temporal?.address ?? opts.temporalAddress ?? ctx.devServer!.address;
}
