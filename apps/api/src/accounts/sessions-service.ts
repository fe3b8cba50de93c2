import { createHash, randomBytes } from 'node:crypto';
import type { Knex } from 'knex';
import { type WebSessionRow } from '#db/accounts/sessions-repository';
import { type TeamMembership, type UserRow } from '#db/accounts/accounts-repository';
import type { ServiceDeps } from '../plugins/service-deps';

/** Sliding lifetime of a browser session. */
export const SESSION_TTL_MS = 14 * 24 * 60 * 60 * 1000;
/** last_seen_at / expires_at are rewritten at most this often per session. */
const TOUCH_THROTTLE_MS = 5 * 60 * 1000;

export interface ResolvedSession {
  /** SHA-256 of the cookie token (the row id); binds CSRF tokens to this session. */
  id: string;
  session: WebSessionRow;
  user: UserRow;
  membership: TeamMembership | null;
  /** The expiry was just extended: the cookie's Max-Age should be renewed too. */
  renewed: boolean;
}

export const hashSessionToken = (token: string): string => createHash('sha256').update(token).digest('hex');

/** Browser sessions: a random cookie token, only its hash stored; sliding expiry. */
export function createSessionsService(deps: Pick<ServiceDeps, 'repos'> & { ttlMs?: number }) {
  const opts = deps;
  const sessions = deps.repos.sessions;
  const accounts = deps.repos.accounts;
  const ttlMs = opts.ttlMs ?? SESSION_TTL_MS;
  return {
    ttlMs,
    async create(
      userId: string,
      meta: { ip: string | null; userAgent: string | null },
    ): Promise<{ token: string; session: WebSessionRow }> {
      const token = randomBytes(32).toString('base64url');
      const session = await sessions.insert({
        id: hashSessionToken(token),
        user_id: userId,
        ip: meta.ip,
        user_agent: meta.userAgent?.slice(0, 300) ?? null,
        expires_at: new Date(Date.now() + ttlMs),
      });
      // Expired sessions are deleted by the retention workflow (docs/design/retention.md).
      return { token, session };
    },
    async resolve(token: string | undefined): Promise<ResolvedSession | null> {
      if (!token || token.length > 100) return null;
      const id = hashSessionToken(token);
      const session = await sessions.findActive(id);
      if (!session) return null;
      const user = await accounts.findUserById(session.user_id);
      if (!user) return null;
      const membership = user.role === 'recruiter' ? ((await accounts.findMembership(user.id)) ?? null) : null;
      const renewed = Date.now() - session.last_seen_at.getTime() >= TOUCH_THROTTLE_MS;
      if (renewed) await sessions.touch(id, new Date(Date.now() + ttlMs), TOUCH_THROTTLE_MS);
      return { id, session, user, membership, renewed };
    },
    async destroy(token: string | undefined): Promise<void> {
      if (token) await sessions.delete(hashSessionToken(token));
    },
  };
}
export type SessionsService = ReturnType<typeof createSessionsService>;
