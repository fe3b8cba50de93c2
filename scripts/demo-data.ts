import type { Services } from '../apps/api/src/services';
import { loadConfig } from '../lib/config';
import { openServices } from './services';
import { SCOPES } from '../lib/scopes';
import { hashPassword } from '../lib/passwords';

export const DEMO_PASSWORD = 'demo-password-123';

/**
 * Demo data for `npm start` and `npm run db:seed`: a seeker with a completed profile and a
 * recruiter with a team, made through the API's own services. Idempotent (find-or-create by
 * e-mail); mints a fresh token per call because stored tokens cannot be shown again.
 */
export async function seedDemoData(services: Services): Promise<{ seekerEmail: string; recruiterEmail: string; seekerToken: string; recruiterToken: string }> {
  const accounts = services.deps.repos.accounts;
  const { profiles, tokens } = services.accounts;
  const passwordHash = await hashPassword(DEMO_PASSWORD);

  const seekerEmail = 'ada.seeker@demo.jobfair.local';
  let seeker = await accounts.findUserByEmail(seekerEmail);
  if (!seeker) {
    seeker = await accounts.insertUser({ email: seekerEmail, display_name: 'Ada Lovelace', role: 'seeker', password_hash: passwordHash });
    await profiles.completeOnboarding(seeker.id, {
      full_name: 'Ada Lovelace',
      title: 'Senior TypeScript Engineer',
      summary: 'Builds durable workflows and APIs.',
      skills: ['TypeScript', 'Node.js', 'PostgreSQL', 'Temporal'],
      experience_years: 8,
      location: 'London',
      remote_preference: 'hybrid',
    });
  }

  const recruiterEmail = 'grace.recruiter@demo.jobfair.local';
  let recruiter = await accounts.findUserByEmail(recruiterEmail);
  if (!recruiter) {
    recruiter = await accounts.insertUser({ email: recruiterEmail, display_name: 'Grace Hopper', role: 'recruiter', password_hash: passwordHash });
    const team = await accounts.insertTeam('Acme Compilers');
    await accounts.addMember(team.id, recruiter.id, 'owner');
    await profiles.completeOnboarding(recruiter.id, { full_name: 'Grace Hopper', title: 'Head of Talent' });
  }

  const stamp = new Date().toISOString().slice(0, 16).replace('T', ' ');
  const seekerToken = (await tokens.mint(seeker.id, { name: `demo seeker (${stamp})`, scopes: SCOPES })).token;
  const recruiterToken = (await tokens.mint(recruiter.id, { name: `demo recruiter (${stamp})`, scopes: SCOPES })).token;
  return { seekerEmail, recruiterEmail, seekerToken, recruiterToken };
}

/** `npm run db:seed`: the demo data against DATABASE_URL (default: the embedded PostgreSQL of `npm start`). */
async function main() {
  const config = loadConfig();
  if (!config.DATABASE_URL) {
    console.error(`DATABASE_URL is not set. For the embedded PostgreSQL of npm start use postgres://postgres:postgres@127.0.0.1:${config.EMBEDDED_PG_PORT}/jobfair`);
    process.exit(2);
  }
  const { services, close } = openServices(config);
  try {
    const demo = await seedDemoData(services);
    console.log(`demo seeker ${demo.seekerEmail} token: ${demo.seekerToken}\ndemo recruiter ${demo.recruiterEmail} token: ${demo.recruiterToken}`);
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
