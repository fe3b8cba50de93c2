import type { Knex } from 'knex';

/** What a person signs up as. */
export const USER_ROLES = ['seeker', 'recruiter'] as const;
export type UserRole = (typeof USER_ROLES)[number];
/** A recruiter's role in their team (owners and admins manage settings and invites). */
export const TEAM_ROLES = ['owner', 'admin', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];
/** The roles that manage a team's settings and invites. */
export const TEAM_MANAGER_ROLES: ReadonlySet<string> = new Set(['owner', 'admin'] satisfies TeamRole[]);

export interface UserRow {
  id: string;
  email: string;
  display_name: string;
  role: UserRole;
  password_hash: string | null;
  onboarding_completed_at: Date | null;
  created_at: Date;
}

export interface SignupRequestRow {
  id: string;
  token_hash: string;
  email: string;
  display_name: string;
  role: UserRole;
  password_hash: string;
  next: string;
  expires_at: Date;
}

export interface TeamMembership {
  team_id: string;
  team_name: string;
  role: TeamRole;
}

export function createAccountsRepository(knex: Knex) {
  return {
    async insertUser(
      input: { email: string; display_name: string; role: UserRole; password_hash?: string | null },
      trx: Knex = knex,
    ): Promise<UserRow> {
      const [row] = await trx('users')
        .insert({ ...input, email: input.email.trim() })
        .returning('*');
      return row;
    },
    async findUserById(id: string, trx: Knex = knex): Promise<UserRow | undefined> {
      return trx('users').where({ id }).first();
    },
    /** A sign-up waiting for its e-mail confirmation (decision 0182). */
    async insertSignupRequest(row: SignupRequestRow, trx: Knex = knex): Promise<void> {
      await trx('signup_requests').insert(row);
    },
    /** A live (unexpired) sign-up request by its token's hash; `lock` for the confirming transaction. */
    async findSignupRequest(
      tokenHash: string,
      opts: { lock?: boolean } = {},
      trx: Knex = knex,
    ): Promise<SignupRequestRow | undefined> {
      const q = trx('signup_requests').where({ token_hash: tokenHash }).andWhereRaw('expires_at > now()').first();
      return opts.lock ? q.forUpdate() : q;
    },
    /** Every request for an address (once one is confirmed, the others' links are void), and expired ones. */
    async deleteSignupRequests(email: string, trx: Knex = knex): Promise<void> {
      await trx('signup_requests')
        .whereRaw('lower(email) = lower(?)', [email.trim()])
        .orWhereRaw('expires_at < now()')
        .delete();
    },
    async findUserByEmail(email: string, trx: Knex = knex): Promise<UserRow | undefined> {
      return trx('users').whereRaw('lower(email) = lower(?)', [email.trim()]).first();
    },
    async markOnboarded(userId: string, trx: Knex = knex): Promise<void> {
      await trx('users')
        .where({ id: userId })
        .whereNull('onboarding_completed_at')
        .update({ onboarding_completed_at: trx.fn.now() });
    },
    async insertTeam(name: string, trx: Knex = knex): Promise<{ id: string; name: string }> {
      const [row] = await trx('teams').insert({ name }).returning(['id', 'name']);
      return row;
    },
    async findTeamById(id: string, trx: Knex = knex): Promise<{ id: string; name: string } | undefined> {
      return trx('teams').where({ id }).first('id', 'name');
    },
    async addMember(teamId: string, userId: string, role: TeamMembership['role'], trx: Knex = knex): Promise<void> {
      await trx('team_members').insert({ team_id: teamId, user_id: userId, role });
    },
    async findMembership(userId: string, trx: Knex = knex): Promise<TeamMembership | undefined> {
      return trx('team_members as m')
        .join('teams as t', 't.id', 'm.team_id')
        .where('m.user_id', userId)
        .first('m.team_id', 't.name as team_name', 'm.role');
    },
    async listTeamMemberIds(teamId: string, trx: Knex = knex): Promise<string[]> {
      const rows = await trx('team_members').where({ team_id: teamId }).select('user_id');
      return rows.map((r: { user_id: string }) => r.user_id);
    },
  };
}
export type AccountsRepository = ReturnType<typeof createAccountsRepository>;
