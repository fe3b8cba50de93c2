import { loadConfig } from '#lib/config';
import { createKnex } from './knex';

/** `npm run db:migrate | db:rollback` against DATABASE_URL (npm start prints it for the embedded server). */
async function main() {
  const command = process.argv[2];
  const config = loadConfig();
  if (!config.DATABASE_URL) {
    console.error(
      `DATABASE_URL is not set. For the embedded PostgreSQL of npm start use ` +
        `postgres://postgres:postgres@127.0.0.1:${config.EMBEDDED_PG_PORT}/jobfair`,
    );
    process.exit(2);
  }
  const knex = createKnex(config.DATABASE_URL, 2);
  try {
    if (command === 'migrate') {
      const [, applied] = await knex.migrate.latest();
      console.log(applied.length ? `applied: ${applied.join(', ')}` : 'already up to date');
    } else if (command === 'rollback') {
      const [, rolled] = await knex.migrate.rollback();
      console.log(rolled.length ? `rolled back: ${rolled.join(', ')}` : 'nothing to roll back');
    } else {
      console.error('usage: db/cli.ts migrate|rollback (demo data: npm run db:seed)');
      process.exitCode = 2;
    }
  } finally {
    await knex.destroy();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
