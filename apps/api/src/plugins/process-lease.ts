import { randomInt } from 'node:crypto';
import type { Knex } from 'knex';
import { Client as PgClient, type ClientConfig } from 'pg';

/** Namespace (first key) of the advisory locks that mark a live API process; the second key is the epoch. */
export const LEASE_LOCK_CLASS = 0x1de0;
const RECONNECT_MS = 250;

/**
 * The liveness of this API process as PostgreSQL sees it (decision 0161). One dedicated session
 * holds the advisory lock (LEASE_LOCK_CLASS, epoch). An idempotency claim records the epoch; a
 * claim whose epoch nobody holds any more belongs to a dead process (kill -9: the kernel closes
 * the socket and PostgreSQL drops the session and its lock at once) or to a session that
 * PostgreSQL lost (a database restart), and another request may take it over immediately instead
 * of waiting out a timeout. When the session is lost this process reconnects with a new epoch,
 * so its own claims from before the outage are free as well.
 */
export class ProcessLease {
  private client: PgClient | null = null;
  private epochValue: number | null = null;
  private closed = false;
  private waiters: Array<() => void> = [];
  private timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly connection: ClientConfig,
    private readonly log: { warn: (o: object, m: string) => void; info: (o: object, m: string) => void },
  ) {}

  static fromKnex(knex: Knex, log: ProcessLease['log']): ProcessLease {
    const c = (knex.client as { config: { connection: ClientConfig | string } }).config.connection;
    return new ProcessLease(typeof c === 'string' ? { connectionString: c } : c, log);
  }

  /** The current epoch, or null while the session is being (re)established. */
  get epoch(): number | null {
    return this.epochValue;
  }

  start(): void {
    void this.connect();
  }

  /** Resolves with the epoch once the session holds its lock, or null after `timeoutMs`. */
  async ready(timeoutMs: number): Promise<number | null> {
    if (this.epochValue !== null || this.closed) return this.epochValue;
    await new Promise<void>((resolve) => {
      const t = setTimeout(resolve, timeoutMs);
      this.waiters.push(() => {
        clearTimeout(t);
        resolve();
      });
    });
    return this.epochValue;
  }

  private async connect(): Promise<void> {
    if (this.closed) return;
    const client = new PgClient({ ...this.connection, application_name: 'jobfair-api-lease' });
    const epoch = randomInt(1, 2 ** 31 - 1);
    client.on('error', () => this.lost(client));
    client.on('end', () => this.lost(client));
    try {
      await client.connect();
      await client.query('SELECT pg_advisory_lock($1, $2)', [LEASE_LOCK_CLASS, epoch]);
    } catch (err) {
      client.removeAllListeners('end');
      client.end().catch(() => undefined);
      this.log.warn({ err }, 'idempotency lease session unavailable; retrying');
      this.schedule();
      return;
    }
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    this.epochValue = epoch;
    for (const w of this.waiters.splice(0)) w();
  }

  private lost(client: PgClient): void {
    if (this.client !== client) return;
    this.client = null;
    this.epochValue = null;
    if (!this.closed) {
      this.log.warn({}, 'idempotency lease session lost; reconnecting with a new epoch');
      this.schedule();
    }
  }

  private schedule(): void {
    if (this.closed || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      void this.connect();
    }, RECONNECT_MS);
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    for (const w of this.waiters.splice(0)) w();
    const c = this.client;
    this.client = null;
    this.epochValue = null;
    if (c) await c.end().catch(() => undefined);
  }
}

/**
 * SQL: true when the lease epoch in `column` is not held by any live session of this database.
 * Advisory locks taken with two int4 keys appear in pg_locks with objsubid = 2.
 */
export const LEASE_DEAD_SQL = (column: string) =>
  `(${column} IS NULL OR NOT EXISTS (SELECT 1 FROM pg_locks l WHERE l.locktype = 'advisory' ` +
  `AND l.granted AND l.objsubid = 2 AND l.classid = ${LEASE_LOCK_CLASS} AND l.objid = ` +
  `${column}::oid AND l.database = (SELECT oid FROM pg_database WHERE datname = ` +
  `current_database())))`;
