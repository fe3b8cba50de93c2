/** The 18 token scopes of the spec; the recruiter-only ones are marked for the token page. */
export const SCOPES = [
  'profile:read',
  'profile:write',
  'queue:read',
  'queue:write',
  'matches:read',
  'matches:write',
  'billing:read',
  'billing:write',
  'events:read',
  'events:write',
  'jobs:read',
  'jobs:write',
  'candidates:read',
  'candidates:write',
  'webhooks:read',
  'webhooks:write',
  'settings:read',
  'settings:write',
] as const;

export type Scope = (typeof SCOPES)[number];

export const RECRUITER_SCOPES: ReadonlySet<Scope> = new Set(['events:write', 'jobs:write', 'candidates:write']);

export function isScope(s: string): s is Scope {
  return (SCOPES as readonly string[]).includes(s);
}
