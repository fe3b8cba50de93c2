import type { Knex } from 'knex';
import type { Repositories } from '#db/repositories';

type Accounts = Pick<Repositories['accounts'], 'insertTeam' | 'insertUser' | 'addMember'>;

/** A bench's team with its recruiter as the owner. */
export async function seedRecruiterTeam(
  accounts: Accounts,
  team: string,
  recruiter: { email: string; displayName: string },
): Promise<{ teamId: string; recruiterId: string }> {
  const { id: teamId } = await accounts.insertTeam(team);
  const user = await accounts.insertUser({
    email: recruiter.email,
    display_name: recruiter.displayName,
    role: 'recruiter',
  });
  await accounts.addMember(teamId, user.id, 'owner');
  return { teamId, recruiterId: user.id };
}

export interface SeedEvent {
  slug: string;
  company: string;
  visibility: 'open_invite' | 'private';
  status: 'live' | 'draft';
  slots: number;
  /** started_at set to now (a live event that went live through the app has it). */
  startedNow?: boolean;
}

/** A live event of `teamId`, written straight to its table (no workflow: the bench drives what follows). */
export async function seedEvent(knex: Knex, teamId: string, e: SeedEvent): Promise<{ id: string; slug: string }> {
  const [row] = await knex('live_events')
    .insert({
      team_id: teamId,
      slug: e.slug,
      company_name: e.company,
      visibility: e.visibility,
      status: e.status,
      interview_slots: e.slots,
      ...(e.startedNow ? { started_at: knex.fn.now() } : {}),
    })
    .returning(['id', 'slug']);
  return row;
}
