import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuthContext } from '../../plugins/auth';

/** The Fastify instance the billing routes are registered on (zod schemas). */
export type BillingApp = Parameters<FastifyPluginAsyncZod>[0];

export const read = { scope: 'billing:read', rateClass: 'read' } as const;
export const write = { scope: 'billing:write', rateClass: 'write' } as const;
export const tags = ['billing'];
export const PAYER =
  "The payer is the caller's team (recruiters); a job seeker → 403 " +
  '`BILLING_NOT_FOR_SEEKERS`, a recruiter without a team → 403 `BILLING_TEAM_REQUIRED`.';
export const payer = (a: AuthContext) => ({ userId: a.userId, role: a.role, teamId: a.teamId });
