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

/**
 * Scope presets for the common uses of a token: what a seeker's job-hunting agent needs, and what a
 * recruiter's event tooling needs. The demo tokens of `npm start` carry these, never all scopes.
 */
export const SCOPE_PRESETS = {
  seeker_agent: ['profile:read', 'profile:write', 'queue:read', 'queue:write', 'matches:read', 'matches:write', 'events:read', 'jobs:read', 'webhooks:read', 'webhooks:write', 'settings:read'],
  recruiter_tools: ['profile:read', 'events:read', 'events:write', 'jobs:read', 'jobs:write', 'candidates:read', 'candidates:write', 'matches:read', 'matches:write', 'webhooks:read', 'webhooks:write', 'settings:read', 'settings:write'],
} as const satisfies Record<string, readonly Scope[]>;
