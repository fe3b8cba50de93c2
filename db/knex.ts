import knex, { type Knex } from 'knex';
import path from 'node:path';
import { types } from 'pg';

// int8 (counts, bigint ms) as JS numbers: every bigint we store fits in 2^53.
types.setTypeParser(20, (v) => Number(v));

export const MIGRATIONS_DIR = path.join(__dirname, 'migrations');

/**
 * Migrations as the compiled image runs them (dist/db/migrations/*.js), under the names the
 * sources have (`…_platform.ts`): knex records a migration by file name, so a database migrated by
 * `npm start` (tsx, .ts) and one migrated by the production image (node, .js) agree on what ran.
 */
const compiledMigrationSource = (directory: string): Knex.MigrationSource<string> => ({
  getMigrations: async () =>
    (await import('node:fs'))
      .readdirSync(directory)
      .filter((f) => f.endsWith('.js'))
      .sort(),
  getMigrationName: (file) => file.replace(/\.js$/, '.ts'),
  getMigration: async (file) => require(path.join(directory, file)) as Knex.Migration,
});
const COMPILED = __filename.endsWith('.js');

export function createKnex(connectionString: string, poolMax = 10): Knex {
  return knex({
    client: 'pg',
    connection: { connectionString },
    pool: { min: 0, max: poolMax },
    // A request that cannot get a connection within this time fails (503 DEPENDENCY_UNAVAILABLE).
    acquireConnectionTimeout: 30_000,
    migrations: COMPILED
      ? { migrationSource: compiledMigrationSource(MIGRATIONS_DIR), tableName: 'knex_migrations' }
      : { directory: MIGRATIONS_DIR, loadExtensions: ['.ts'], tableName: 'knex_migrations' },
  });
}

export async function migrateLatest(db: Knex): Promise<string[]> {
  const [, applied] = await db.migrate.latest();
  return applied as string[];
}
