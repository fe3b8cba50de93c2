import knex, { type Knex } from 'knex';
import path from 'node:path';
import { types } from 'pg';

// int8 (counts, bigint ms) as JS numbers: every bigint we store fits in 2^53.
types.setTypeParser(20, (v) => Number(v));

export const MIGRATIONS_DIR = path.join(__dirname, 'migrations');

export function createKnex(connectionString: string, poolMax = 10): Knex {
  return knex({
    client: 'pg',
    connection: { connectionString },
    pool: { min: 0, max: poolMax },
    // A request that cannot get a connection within this time fails (503 DEPENDENCY_UNAVAILABLE).
    acquireConnectionTimeout: 30_000,
    migrations: { directory: MIGRATIONS_DIR, loadExtensions: ['.ts'], tableName: 'knex_migrations' },
  });
}

export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, applied] = await db.migrate.latest();
  return applied as string[];
}
