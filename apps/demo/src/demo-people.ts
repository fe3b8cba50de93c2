import type { Services } from '../../api/src/services';
import type { DemoPerson, DemoSeeker } from '#activities/demo/fair';

/**
 * Find-or-create of the demo's people by e-mail, onboarded through the API's profile service;
 * every one signs in with the demo password (its hash given once).
 */
export function createDemoPeople(services: Services, passwordHash: string) {
  const accounts = services.deps.repos.accounts;
  const { profiles } = services.accounts;

  /** A seeker with the fair's profile. */
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

  /** A recruiter: the owner of a new team (`team` null), or a member of the given one. */
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

  return { seekerOf, recruiterOf };
}
