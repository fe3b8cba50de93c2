import { ForbiddenError } from '#lib/errors';
import { TEAM_MANAGER_ROLES } from '#db/accounts/accounts-repository';
import type { BillingServiceDeps } from './deps';

/** The caller as a payer: a recruiter's team. */
export interface Payer {
  userId: string;
  role: 'seeker' | 'recruiter';
  teamId: string | null;
}

/** A seeker has nothing to buy; a recruiter pays as their team. */
export function teamOf(p: Payer): string {
  if (p.role !== 'recruiter')
    throw new ForbiddenError(
      'Billing is for recruiting teams; a job seeker has nothing to buy',
      'BILLING_NOT_FOR_SEEKERS',
    );
  if (!p.teamId)
    throw new ForbiddenError('Join or create a team first: billing belongs to a team', 'BILLING_TEAM_REQUIRED');
  return p.teamId;
}

/** The payer's team, when the payer may change its plan (owners and admins). */
export async function managerTeamOf(deps: BillingServiceDeps, p: Payer): Promise<string> {
  const teamId = teamOf(p);
  const m = await deps.repos.accounts.findMembership(p.userId);
  if (!m || !TEAM_MANAGER_ROLES.has(m.role))
    throw new ForbiddenError("Only the team's owners and admins change its plan", 'BILLING_OWNER_REQUIRED');
  return teamId;
}
