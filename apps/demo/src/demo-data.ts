import type { Services } from '../../api/src/services';
import { loadConfig, type Config } from '#lib/config';
import { openServices } from '../../ops/src/services';
import { presetScopes } from '#lib/scopes';
import { hashPassword } from '#lib/passwords';
import { DEMO_COMPANIES, DEMO_PASSWORD, DEMO_SEEKER, DEMO_SIMULATED_SEEKERS } from '#activities/demo/fair';
import { createDemoTokenIssuer } from './demo-api-tokens';
import { ensureDemoEvent } from './demo-events';
import { createDemoPeople } from './demo-people';

export { DEMO_PASSWORD };
export { DEMO_TOKEN_TTL_MS } from './demo-api-tokens';

export interface DemoFair {
  seekerEmail: string;
  recruiterEmail: string;
  seekerToken: string;
  recruiterToken: string;
  tokenExpiresAt: string;
  events: Array<{ slug: string; company: string; teamId: string; ownerId: string; eventId: string }>;
}

/**
 * Demo data for `npm start` and `npm run db:seed`, made through the API's own services: the fair of
 * activities/demo/fair.ts (three companies, each an open-invite event with jobs, an owner and a
 * simulated recruiter), the demo seeker, and simulated seekers. Idempotent: find-or-create by
 * e-mail and slug. Tokens: one per demo user, reused across starts (sealed in DATA_DIR), scoped
 * by preset, expiring in 30 days. The events go live separately (`openDemoEvents`), once a worker runs.
 */
export async function seedDemoData(
  services: Services,
  config: Pick<Config, 'DATA_DIR' | 'APP_SECRET' | 'NODE_ENV'>,
): Promise<DemoFair> {
  const { seekerOf, recruiterOf } = createDemoPeople(services, await hashPassword(DEMO_PASSWORD));
  const seeker = await seekerOf(DEMO_SEEKER);
  const simulated = await Promise.all(DEMO_SIMULATED_SEEKERS.map(async (s) => ({ s, user: await seekerOf(s) })));
  const events: DemoFair['events'] = [];
  let recruiterId = '';
  for (const company of DEMO_COMPANIES) {
    const owner = await recruiterOf(company.owner, null, company.team);
    const colleague = await recruiterOf(company.simulatedRecruiter, { id: owner.teamId }, company.team);
    if (!recruiterId) recruiterId = owner.user.id;
    const event = await ensureDemoEvent(services, company, owner, colleague);
    events.push({
      slug: company.slug,
      company: company.team,
      teamId: owner.teamId,
      ownerId: owner.user.id,
      eventId: event.id,
    });
  }

  const { tokenFor, save } = createDemoTokenIssuer(services, config);
  const seekerToken = await tokenFor(DEMO_SEEKER.email, seeker.id, 'demo seeker agent', presetScopes('seeker-agent'));
  const recruiterToken = await tokenFor(
    DEMO_COMPANIES[0].owner.email,
    recruiterId,
    'demo recruiter tools',
    presetScopes('recruiter-automation'),
  );
  for (const { s, user } of simulated)
    await tokenFor(s.email, user.id, 'demo simulated agent', presetScopes('seeker-agent'));
  save();

  return {
    seekerEmail: DEMO_SEEKER.email,
    recruiterEmail: DEMO_COMPANIES[0].owner.email,
    seekerToken: seekerToken.token,
    recruiterToken: recruiterToken.token,
    tokenExpiresAt: seekerToken.expiresAt,
    events,
  };
}

/** Puts the demo events live (go-live is an Update on the live-event workflow: a worker must run). */
export async function openDemoEvents(services: Services, fair: Pick<DemoFair, 'events'>): Promise<void> {
  for (const e of fair.events) {
    const row = await services.deps.repos.events.findById(e.eventId);
    if (row?.status === 'draft') await services.events.liveEvents.transition(e.teamId, e.ownerId, e.eventId, 'goLive');
    if (row?.status === 'paused') await services.events.liveEvents.transition(e.teamId, e.ownerId, e.eventId, 'resume');
  }
}

/** `npm run db:seed`: the demo data against DATABASE_URL (default: the embedded PostgreSQL of `npm start`). */
async function main() {
  const config = loadConfig();
  if (!config.DATABASE_URL) {
    console.error(
      `DATABASE_URL is not set. For the embedded PostgreSQL of npm start use ` +
        `postgres://postgres:postgres@127.0.0.1:${config.EMBEDDED_PG_PORT}/jobfair`,
    );
    process.exit(2);
  }
  const { services, close } = openServices(config);
  try {
    const demo = await seedDemoData(services, config);
    console.log(
      `demo seeker ${demo.seekerEmail} token: ${demo.seekerToken}\ndemo recruiter ` +
        `${demo.recruiterEmail} token: ${demo.recruiterToken}\n(the events go live at the next npm ` +
        `start, or from the console)`,
    );
  } finally {
    await close();
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
