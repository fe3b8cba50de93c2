import type { Services } from '../../api/src/services';
import { appSecret, loadConfig, type Config } from '#lib/config';
import { openServices } from '../../ops/src/services';
import { presetScopes } from '#lib/scopes';
import { hashPassword } from '#lib/passwords';
import { hashToken } from '#lib/tokens';
import {
  DEMO_COMPANIES,
  DEMO_PASSWORD,
  DEMO_SEEKER,
  DEMO_SIMULATED_SEEKERS,
  type DemoPerson,
  type DemoSeeker,
} from '#activities/demo/fair';
import { createDemoTokenStore, type StoredDemoToken } from '#activities/demo/demo-tokens';

export { DEMO_PASSWORD };

/** Demo tokens expire after 30 days; one with less than a day left is replaced at the next start. */
export const DEMO_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const RENEW_BEFORE_MS = 24 * 60 * 60 * 1000;

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
  const accounts = services.deps.repos.accounts;
  const availability = services.deps.repos.availability;
  const { profiles } = services.accounts;
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  const seekerOf = async (s: DemoSeeker) => {
    const found = await accounts.findUserByEmail(s.email);
    if (found) return found;
    const user = await accounts.insertUser({
      email: s.email,
      display_name: s.name,
      role: 'seeker',
      password_hash: passwordHash,
    });
    await profiles.completeOnboarding(user.id, {
      full_name: s.name,
      title: s.title,
      summary: s.summary,
      skills: s.skills,
      experience_years: s.years,
      location: s.location,
      remote_preference: s.remote,
    });
    return user;
  };
  const recruiterOf = async (p: DemoPerson, team: { id: string } | null, teamName: string) => {
    const found = await accounts.findUserByEmail(p.email);
    if (found) return { user: found, teamId: (await accounts.findMembership(found.id))!.team_id };
    const user = await accounts.insertUser({
      email: p.email,
      display_name: p.name,
      role: 'recruiter',
      password_hash: passwordHash,
    });
    const teamId = team?.id ?? (await accounts.insertTeam(teamName)).id;
    await accounts.addMember(teamId, user.id, team ? 'member' : 'owner');
    await profiles.completeOnboarding(user.id, { full_name: p.name, title: p.title });
    return { user, teamId };
  };

  const seeker = await seekerOf(DEMO_SEEKER);
  const simulated = await Promise.all(DEMO_SIMULATED_SEEKERS.map(async (s) => ({ s, user: await seekerOf(s) })));
  const events: DemoFair['events'] = [];
  let recruiterId = '';
  for (const company of DEMO_COMPANIES) {
    const owner = await recruiterOf(company.owner, null, company.team);
    const colleague = await recruiterOf(company.simulatedRecruiter, { id: owner.teamId }, company.team);
    if (!recruiterId) recruiterId = owner.user.id;
    let event = await services.deps.repos.events.findBySlug(company.slug);
    if (!event) {
      event = await services.events.liveEvents.create(owner.teamId, owner.user.id, {
        slug: company.slug,
        company_name: company.team,
        headline: company.headline,
        description: company.description,
        accent_color: company.accent,
        visibility: 'open_invite',
        interview_slots: company.slots,
      });
      for (const j of company.jobs) {
        await services.events.jobs.create(owner.teamId, {
          live_event_id: event.id,
          title: j.title,
          essential_skills: j.essential,
          bonus_skills: j.bonus,
          experience_min: j.experienceMin,
          salary_min: j.salary[0],
          salary_max: j.salary[1],
          location: j.location,
          remote_preference: j.remote,
        });
      }
    }
    // Recruiter availability (decision 0123): seeded once per recruiter, so a newcomer's own change
    // in the console (Matching settings) survives the next start.
    for (const [user, a] of [
      [owner.user, company.availability.owner],
      [colleague.user, company.availability.simulatedRecruiter],
    ] as const) {
      if (!(await availability.findOne(event.id, user.id))) await availability.upsert(event.id, user.id, a);
    }
    events.push({
      slug: company.slug,
      company: company.team,
      teamId: owner.teamId,
      ownerId: owner.user.id,
      eventId: event.id,
    });
  }

  // Tokens: reuse the sealed one while it is valid; otherwise mint one (30 days, preset scopes).
  const store = createDemoTokenStore(config.DATA_DIR, appSecret(config));
  const stored = store.read();
  const fresh: Record<string, StoredDemoToken> = {};
  const tokenFor = async (email: string, userId: string, name: string, scopes: readonly string[]) => {
    const old = stored[email];
    if (old) {
      const row = await services.deps.repos.tokens.findByHash(hashToken(old.token));
      if (
        row &&
        row.user_id === userId &&
        !row.revoked_at &&
        row.expires_at &&
        row.expires_at.getTime() - Date.now() > RENEW_BEFORE_MS
      ) {
        fresh[email] = old;
        return old;
      }
    }
    const expiresAt = new Date(Date.now() + DEMO_TOKEN_TTL_MS);
    const { token } = await services.accounts.tokens.mint(userId, { name, scopes, expiresAt });
    fresh[email] = { token, expiresAt: expiresAt.toISOString() };
    return fresh[email];
  };
  const seekerToken = await tokenFor(DEMO_SEEKER.email, seeker.id, 'demo seeker agent', presetScopes('seeker-agent'));
  const recruiterToken = await tokenFor(
    DEMO_COMPANIES[0].owner.email,
    recruiterId,
    'demo recruiter tools',
    presetScopes('recruiter-automation'),
  );
  for (const { s, user } of simulated)
    await tokenFor(s.email, user.id, 'demo simulated agent', presetScopes('seeker-agent'));
  store.write(fresh);

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
