import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** The Fastify instance the webhooks routes are registered on (zod schemas). */
export type WebhooksApp = Parameters<FastifyPluginAsyncZod>[0];

export const read = { scope: 'webhooks:read', rateClass: 'read' } as const;
export const write = { scope: 'webhooks:write', rateClass: 'write' } as const;
export const tags = ['webhooks'];
export const OWNERSHIP =
  "Subscriptions belong to the caller's team when the caller is a recruiter with a team, " +
  "otherwise to the caller; another owner's subscription answers 404.";
