import type { Knex } from 'knex';
import { UUID_RE } from '#lib/ids';
import type { TeamRole } from './accounts-repository';

/** The roles an invite may grant (owners are made, not invited). */
export const INVITE_ROLES = ['member', 'admin'] as const satisfies readonly TeamRole[];
export type InviteRole = (typeof INVITE_ROLES)[number];
export const INVITE_STATUSES = ['pending', 'accepted', 'revoked', 'expired'] as const;
export type InviteStatus = (typeof INVITE_STATUSES)[number];

export interface InviteRow {
  id: string;
  team_id: string;
  email: string;
  role: InviteRole;
  token_hash: string;
  /** Stored status; a `pending` row past expires_at reads as expired (see `effectiveStatus`). */
  status: InviteStatus;
  invited_by: string | null;
  accepted_by: string | null;
  expires_at: Date;
  accepted_at: Date | null;
  revoked_at: Date | null;
  created_at: Date;
}

export const effectiveStatus = (row: Pick<InviteRow, 'status' | 'expires_at'>, now = Date.now()): InviteStatus =>
  row.status === 'pending' && row.expires_at.getTime() <= now ? 'expired' : row.status;

export function createInvitesRepository(knex: Knex) {
  return {
    async insert(
      input: Partial<Pick<InviteRow, 'id'>> &
        Pick<InviteRow, 'team_id' | 'email' | 'role' | 'token_hash' | 'invited_by' | 'expires_at'>,
      trx: Knex = knex,
    ): Promise<InviteRow> {
      const [row] = await trx('team_invites').insert(input).returning('*');
      return row;
    },
    /** The team's pending invite for an address (locked when inside a transaction). */
    async findPendingForEmail(teamId: string, email: string, trx: Knex = knex): Promise<InviteRow | undefined> {
      return trx('team_invites')
        .where({ team_id: teamId, status: 'pending' })
        .whereRaw('lower(email) = lower(?)', [email])
        .forUpdate()
        .first();
    },
    async findForTeam(teamId: string, id: string, trx: Knex = knex): Promise<InviteRow | undefined> {
      if (!UUID_RE.test(id)) return undefined;
      return trx('team_invites').where({ team_id: teamId, id }).first();
    },
    async findByTokenHash(
      tokenHash: string,
      opts: { lock?: boolean } = {},
      trx: Knex = knex,
    ): Promise<InviteRow | undefined> {
      const q = trx('team_invites').where({ token_hash: tokenHash });
      if (opts.lock) q.forUpdate();
      return q.first();
    },
    /** Query for the pagination helper: the team's invites, newest first. */
    teamInvitesQuery(teamId: string, trx: Knex = knex): Knex.QueryBuilder {
      return trx('team_invites').where({ team_id: teamId }).select('*');
    },
    async setStatus(
      id: string,
      status: Exclude<InviteStatus, 'pending'>,
      extra: { accepted_by?: string } = {},
      trx: Knex = knex,
    ): Promise<InviteRow> {
      const stamp =
        status === 'accepted'
          ? { accepted_at: trx.fn.now() }
          : status === 'revoked'
            ? { revoked_at: trx.fn.now() }
            : {};
      const [row] = await trx('team_invites')
        .where({ id })
        .update({ status, ...stamp, ...extra })
        .returning('*');
      return row;
    },
    async insertOutboxEmail(
      input: { id: string; to_address: string; subject: string; body: string; kind: string },
      trx: Knex = knex,
    ): Promise<void> {
      await trx('email_outbox').insert(input).onConflict('id').ignore();
    },
  };
}
export type InvitesRepository = ReturnType<typeof createInvitesRepository>;
