import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { effectiveStatus, type InviteRow } from '#db/accounts/invites-repository';
import { isUniqueViolation } from '#db/events/events-repository';
import { ConflictError, ForbiddenError, NotFoundError } from '#lib/errors';
import { operationUuid, type OperationKey } from '#lib/operation-ids';
import { sealOutboxBody } from '#lib/sealed';
import { startOutboxEmail } from '#workflows/notifications/client';
import type { Config } from '#lib/config';
import type { Page, Paginator } from '../plugins/pagination';
import type { ServiceDeps } from '../plugins/service-deps';
import { TEAM_MANAGER_ROLES } from '#db/accounts/accounts-repository';

export const INVITE_TOKEN_PREFIX = 'inv_';
export const hashInviteToken = (token: string) => createHash('sha256').update(`team-invite:${token}`).digest('hex');
export const inviteUrl = (baseUrl: string, token: string) => `${baseUrl}/invites/${token}`;

export interface InvitePreview {
  team_name: string;
  email: string;
  role: InviteRow['role'];
  status: ReturnType<typeof effectiveStatus>;
  expires_at: Date;
}

/**
 * Team invites: an owner or admin invites an address; the e-mail (via the outbox) carries
 * `${publicBaseUrl}/invites/<token>`; the invitee accepts in the web application (`acceptInvite`).
 * Only a hash of the token is stored, so the link cannot be recovered from the database.
 */
export function createInvitesService(
  deps: Pick<ServiceDeps, 'knex' | 'repos' | 'config' | 'paginator' | 'appSecret' | 'temporal'>,
) {
  const accounts = deps.repos.accounts;
  const invites = deps.repos.invites;

  const requireManager = async (userId: string, trx: Knex = deps.knex) => {
    const membership = await accounts.findMembership(userId, trx);
    if (!membership)
      throw new ForbiddenError('Team invites need a recruiter who belongs to a team', 'RECRUITER_TEAM_REQUIRED');
    if (!TEAM_MANAGER_ROLES.has(membership.role))
      throw new ForbiddenError('Only team owners and admins can manage invites', 'TEAM_ROLE_REQUIRED');
    return membership;
  };

  /** A live invite by token; unknown, revoked or expired links are one 404 to the outside. */
  const findUsable = async (token: string, trx: Knex, lock: boolean) => {
    if (!token.startsWith(INVITE_TOKEN_PREFIX) || token.length > 200) return undefined;
    return invites.findByTokenHash(hashInviteToken(token), { lock }, trx);
  };

  return {
    async create(
      inviterId: string,
      input: { email: string; role: InviteRow['role'] },
      op: OperationKey | null = null,
    ): Promise<InviteRow> {
      const email = input.email.trim();
      // The invite and its e-mail commit together; a keyed retry after a crash finds the invite this
      // key created and answers with it — no second e-mail (decision 0160).
      const id = operationUuid(op, 'team-invite');
      // The e-mail's outbox id derives from the same key, so a keyed retry starts (a no-op if it runs)
      // the sending of the one e-mail the first request wrote, never a second one.
      const outboxId = operationUuid(op, 'team-invite-email');
      const invite = await deps.knex.transaction(async (trx) => {
        const membership = await requireManager(inviterId, trx);
        if (op) {
          const done = await invites.findForTeam(membership.team_id, id, trx);
          if (done) return done;
        }
        const existingUser = await accounts.findUserByEmail(email, trx);
        if (existingUser) {
          const theirs = await accounts.findMembership(existingUser.id, trx);
          if (theirs?.team_id === membership.team_id)
            throw new ConflictError('ALREADY_MEMBER', `${email} is already a member of this team`, { email });
        }
        const pending = await invites.findPendingForEmail(membership.team_id, email, trx);
        if (pending && effectiveStatus(pending) === 'pending') {
          throw new ConflictError(
            'INVITE_ALREADY_PENDING',
            `${email} already has a pending invite; revoke it to send a new one`,
            { invite_id: pending.id, email },
          );
        }
        // A pending row past its expiry is settled as expired before the new invite replaces it.
        if (pending) await invites.setStatus(pending.id, 'expired', {}, trx);
        const token = `${INVITE_TOKEN_PREFIX}${randomBytes(24).toString('base64url')}`;
        let row: InviteRow;
        try {
          row = await invites.insert(
            {
              id,
              team_id: membership.team_id,
              email,
              role: input.role,
              token_hash: hashInviteToken(token),
              invited_by: inviterId,
              expires_at: new Date(Date.now() + deps.config.TEAM_INVITE_TTL_MS),
            },
            trx,
          );
        } catch (err) {
          if (isUniqueViolation(err))
            throw new ConflictError('INVITE_ALREADY_PENDING', `${email} already has a pending invite`, { email });
          throw err;
        }
        const inviter = await accounts.findUserById(inviterId, trx);
        const link = inviteUrl(deps.config.publicBaseUrl, token);
        await invites.insertOutboxEmail(
          {
            id: outboxId,
            to_address: email,
            kind: 'team_invite',
            subject: `${inviter?.display_name ?? 'A recruiter'} invited you to ${membership.team_name} on Job Fair`,
            // The link is a credential: sealed at rest, opened by the sender (decision 0163).
            body: sealOutboxBody(
              [
                `${inviter?.display_name ?? 'A recruiter'} invited you to join the team ` +
                  `${membership.team_name} as ${input.role}.`,
                '',
                `Accept the invite: ${link}`,
                '',
                `The link is valid until ${row.expires_at.toISOString()}. If you did not expect this ` +
                  `e-mail, ignore it.`,
              ].join('\n'),
              deps.appSecret,
            ),
          },
          trx,
        );
        return row;
      });
      // After the commit the worker sends it (SMTP when configured; retried). Before this change the
      // row was written and never sent. A failure to start it leaves the row pending and answers 503.
      await startOutboxEmail(deps.temporal, deps.config, outboxId);
      return invite;
    },

    async list(userId: string, q: { limit: number; cursor?: string }): Promise<Page<InviteRow>> {
      const membership = await requireManager(userId);
      return deps.paginator.page<InviteRow>(invites.teamInvitesQuery(membership.team_id), {
        limit: q.limit,
        cursor: q.cursor,
        filter: { team: membership.team_id },
      });
    },

    /** Idempotent for an already revoked invite; an accepted one cannot be revoked (409). */
    async revoke(userId: string, inviteId: string): Promise<InviteRow> {
      return deps.knex.transaction(async (trx) => {
        const membership = await requireManager(userId, trx);
        const row = await invites.findForTeam(membership.team_id, inviteId, trx);
        if (!row) throw new NotFoundError('invite', inviteId);
        if (row.status === 'accepted')
          throw new ConflictError('INVITE_ALREADY_ACCEPTED', `invite ${row.id} was already accepted`, {
            invite_id: row.id,
          });
        if (row.status === 'revoked') return row;
        return invites.setStatus(row.id, 'revoked', {}, trx);
      });
    },

    /** For the invite page: who invites, to which team; null when the link is unknown. */
    async previewInvite(token: string): Promise<InvitePreview | null> {
      const row = await findUsable(token, deps.knex, false);
      if (!row) return null;
      const team = await deps.knex('teams').where({ id: row.team_id }).first('name');
      return {
        team_name: team?.name ?? '',
        email: row.email,
        role: row.role,
        status: effectiveStatus(row),
        expires_at: row.expires_at,
      };
    },

    /**
     * Called by the web application's invite page for the signed-in user. The user must be a
     * recruiter whose e-mail is the invited address and who is in no other team. Accepting the
     * same invite again is a no-op that answers the same.
     */
    async acceptInvite(
      userId: string,
      inviteToken: string,
    ): Promise<{ teamId: string; role: InviteRow['role']; invite: InviteRow }> {
      return deps.knex.transaction(async (trx) => {
        const row = await findUsable(inviteToken, trx, true);
        if (!row) throw new NotFoundError('invite');
        const user = await accounts.findUserById(userId, trx);
        if (!user) throw new NotFoundError('user', userId);
        if (row.status === 'accepted') {
          if (row.accepted_by === userId) return { teamId: row.team_id, role: row.role, invite: row };
          throw new ConflictError('INVITE_ALREADY_ACCEPTED', 'This invite has already been used', {
            invite_id: row.id,
          });
        }
        const status = effectiveStatus(row);
        if (status === 'revoked')
          throw new ConflictError('INVITE_REVOKED', 'This invite was revoked by the team', { invite_id: row.id });
        if (status === 'expired')
          throw new ConflictError('INVITE_EXPIRED', 'This invite has expired; ask the team for a new one', {
            invite_id: row.id,
          });
        if (user.email.trim().toLowerCase() !== row.email.trim().toLowerCase()) {
          throw new ForbiddenError(
            `This invite was sent to another e-mail address; sign in as ${row.email}`,
            'INVITE_EMAIL_MISMATCH',
          );
        }
        if (user.role !== 'recruiter')
          throw new ForbiddenError('Only recruiter accounts can join a team', 'ROLE_NOT_ALLOWED');
        const current = await accounts.findMembership(userId, trx);
        if (current && current.team_id !== row.team_id) {
          throw new ConflictError(
            'ALREADY_IN_TEAM',
            'You already belong to another team; leave it before joining this one',
            { team_id: current.team_id },
          );
        }
        if (!current) await accounts.addMember(row.team_id, userId, row.role, trx);
        const accepted = await invites.setStatus(row.id, 'accepted', { accepted_by: userId }, trx);
        return { teamId: row.team_id, role: row.role, invite: accepted };
      });
    },
  };
}
export type InvitesService = ReturnType<typeof createInvitesService>;
