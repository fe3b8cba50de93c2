import { appSecret } from '#lib/config';
import { createKnex, migrateLatest } from '#db/knex';
import { seedDemoData } from '#apps/demo/src/demo-data';
import { openServices } from '#apps/ops/src/services';
import { startInfrastructure } from '../stack';
import { TemporalCliUnavailableError } from '../temporal-server';
import { log, type StartContext } from './context';

/** Temporal (dev server or TEMPORAL_ADDRESS) and PostgreSQL (embedded or DATABASE_URL). */
export async function startServers(ctx: StartContext): Promise<void> {
  const { supervisor } = ctx;
  try {
    supervisor.infraStarting = startInfrastructure({ config: ctx.config, log, persistent: true });
    ctx.infra = supervisor.infra = await supervisor.infraStarting;
  } catch (err) {
    console.error(
      err instanceof TemporalCliUnavailableError
        ? err.message
        : `Could not start the infrastructure: ${(err as Error).message}`,
    );
    process.exit(1);
  }
}

export async function migrate(ctx: StartContext): Promise<void> {
  const knex = createKnex(ctx.infra.databaseUrl, 2);
  try {
    const applied = await migrateLatest(knex);
    log(applied.length ? `migrations applied: ${applied.join(', ')}` : 'migrations: up to date');
  } finally {
    await knex.destroy();
  }
}

/** The demo fair is seeded now; its events go live once the worker runs (go-live is an Update). */
export async function seedDemo(ctx: StartContext): Promise<void> {
  const { config, infra } = ctx;
  ctx.seeding = openServices(
    { ...config, APP_SECRET: appSecret(config) },
    { databaseUrl: infra.databaseUrl, temporalAddress: infra.temporalAddress },
  );
  ctx.demo = await seedDemoData(ctx.seeding.services, config);
}
