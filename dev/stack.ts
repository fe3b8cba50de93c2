import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Config } from '#lib/config';
import { startPostgres, ensureDatabase, type RunningPostgres } from './postgres-server';
import {
  defaultCacheDir,
  resolveTemporalCli,
  startDevServer,
  registerSearchAttributes,
  type RunningDevServer,
} from './temporal-server';
import { Connection } from '@temporalio/client';
import { freePort } from './ports';

export interface Infrastructure {
  databaseUrl: string;
  temporalAddress: string;
  temporalUiUrl: string | null;
  /** Admin URL of the embedded server (tests create per-file databases from a template). */
  adminDatabaseUrl: string | null;
  stop: () => Promise<void>;
}

/**
 * Brings up what the processes need: DATABASE_URL or embedded PostgreSQL; TEMPORAL_ADDRESS or
 * the dev server. `persistent` keeps state under DATA_DIR (npm start); tests use a temporary
 * dir and an in-memory Temporal. Anything started is stopped again if a later step fails.
 * `persistent` servers also run in their own process groups: a Ctrl-C in npm start's terminal
 * reaches the supervisor alone, which stops the API and worker first and the servers last.
 */
export async function startInfrastructure(opts: {
  config: Config;
  log: (line: string) => void;
  persistent: boolean;
  pgDataDir?: string;
  pgPort?: number;
  temporalPort?: number;
  temporalUiPort?: number | null;
  databaseName?: string;
}): Promise<Infrastructure> {
  const { config, log } = opts;
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    let databaseUrl = config.DATABASE_URL;
    let adminDatabaseUrl: string | null = null;
    if (databaseUrl) {
      log(`PostgreSQL: DATABASE_URL (${redactUrl(databaseUrl)})`);
    } else {
      const pg: RunningPostgres = await startPostgres({
        dataDir: opts.pgDataDir ?? path.join(config.DATA_DIR, 'postgres'),
        port: opts.pgPort ?? config.EMBEDDED_PG_PORT,
        log: (l) => log(`[postgres] ${l}`),
        ownProcessGroup: opts.persistent,
      });
      stops.push(pg.stop);
      const dbName = opts.databaseName ?? 'jobfair';
      await ensureDatabase(pg.url(), dbName);
      databaseUrl = pg.url(dbName);
      adminDatabaseUrl = pg.url();
      log(`PostgreSQL: embedded, port ${pg.port}, data ${pg.dataDir}`);
    }

    let temporalAddress = config.TEMPORAL_ADDRESS;
    let temporalUiUrl: string | null = config.TEMPORAL_UI_URL ?? null;
    if (temporalAddress) {
      log(`Temporal: TEMPORAL_ADDRESS ${temporalAddress} (no server started)`);
      const connection = await Connection.connect({ address: temporalAddress });
      try {
        await registerSearchAttributes(connection, config.TEMPORAL_NAMESPACE);
      } finally {
        await connection.close();
      }
    } else {
      const cli = resolveTemporalCli({
        temporalCli: config.TEMPORAL_CLI,
        cacheDir: defaultCacheDir(config.CACHE_DIR),
        log,
      });
      await cli.build?.();
      log(`Temporal CLI: ${cli.path} (from ${cli.source})`);
      const server: RunningDevServer = await startDevServer({
        cli: cli.path,
        port: opts.temporalPort ?? config.TEMPORAL_PORT,
        uiPort: opts.temporalUiPort === null ? undefined : (opts.temporalUiPort ?? config.TEMPORAL_UI_PORT),
        dbFile: opts.persistent ? path.resolve(config.DATA_DIR, 'temporal.sqlite') : undefined,
        pidFile: opts.persistent ? path.resolve(config.DATA_DIR, 'temporal.pid') : undefined,
        namespace: config.TEMPORAL_NAMESPACE,
        log,
        ownProcessGroup: opts.persistent,
      });
      stops.push(server.stop);
      temporalAddress = server.address;
      temporalUiUrl = server.uiUrl ?? null;
      log(
        `Temporal: dev server at ${temporalAddress}${opts.persistent ? `, state in ${path.join(config.DATA_DIR, 'temporal.sqlite')}` : ' (in memory)'}`,
      );
    }
    return {
      databaseUrl: databaseUrl!,
      temporalAddress: temporalAddress!,
      temporalUiUrl,
      adminDatabaseUrl,
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

export function redactUrl(url: string): string {
  return url.replace(/\/\/([^:/@]+):([^@]+)@/, '//$1:***@');
}

/**
 * Throw-away infrastructure for `npm test`, the history capture and the benches: PostgreSQL in a
 * fresh temporary directory and an in-memory Temporal dev server, both on free ports, no UI.
 * `dir` is the temporary directory (put other throw-away files there); `stop()` removes it too.
 */
export async function startThrowawayInfrastructure(opts: {
  config: Config;
  log: (line: string) => void;
  prefix: string;
}): Promise<Infrastructure & { dir: string }> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `${opts.prefix}-`));
  // Readable by the postgres user when the tests run as root (embedded PostgreSQL refuses root).
  fs.chmodSync(dir, 0o755);
  try {
    const infra = await startInfrastructure({
      config: opts.config,
      log: opts.log,
      persistent: false,
      pgDataDir: path.join(dir, 'pg'),
      pgPort: await freePort(),
      temporalPort: await freePort(),
      temporalUiPort: null,
      databaseName: 'postgres',
    });
    return {
      ...infra,
      dir,
      stop: async () => {
        await infra.stop();
        fs.rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    fs.rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
