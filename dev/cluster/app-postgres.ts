import path from 'node:path';
import { ensureDatabase, startPostgres } from '../postgres-server';
import { freePort } from '../ports';
import type { ClusterContext } from './context';

/** 3. The app's PostgreSQL, with its database. */
export async function startAppPostgres(ctx: ClusterContext): Promise<void> {
  const appPg = await startPostgres({
    dataDir: path.join(ctx.dir, 'app-pg'),
    port: await freePort(),
    ownProcessGroup: true,
    log: () => undefined,
  });
  ctx.appPg = appPg;
  // Stopped after Temporal (pushed first = stopped last would be the other way): both databases last.
  ctx.supervisor.addStop("the app's PostgreSQL", appPg.stop, true);
  await ensureDatabase(appPg.url(), 'jobfair');
  ctx.databaseUrl = appPg.url('jobfair');
  ctx.log(`app PostgreSQL on port ${appPg.port}`);
}
