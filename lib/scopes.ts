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

/** What each scope lets a token do, in words for the token page, the API reference and the agent guide. */
export const SCOPE_DESCRIPTIONS: Record<Scope, string> = {
  'profile:read': 'Read your profile (skills, experience, location).',
  'profile:write': 'Change your profile.',
  'queue:read': 'See your place in the matchmaking queue.',
  'queue:write': 'Join and leave the matchmaking queue (a person still accepts any match in the web app).',
  'matches:read': 'List your matches and get interview room links once accepted.',
  'matches:write': 'Decline a match.',
  'billing:read': 'See billing status.',
  'billing:write': 'Change billing settings.',
  'events:read': "List your team's live events.",
  'events:write': 'Create, edit and run live events (go live, pause, end).',
  'jobs:read': "List your team's jobs; compare your profile with a job (AI comparison).",
  'jobs:write': "Create, edit and close your team's jobs.",
  'candidates:read': 'See candidates who matched with your jobs.',
  'candidates:write': 'Write notes on candidates.',
  'webhooks:read': 'List webhook subscriptions and their delivery logs.',
  'webhooks:write': 'Create, change, test, replay and delete webhook subscriptions.',
  'settings:read': 'Read account and team settings, team invites.',
  'settings:write': 'Change settings, invite and revoke team members.',
};

/** Starting points on the token page; the person still reviews every box before creating the token. */
export const SCOPE_PRESETS: ReadonlyArray<{
  id: string;
  label: string;
  description: string;
  scopes: readonly Scope[];
}> = [
  {
    id: 'seeker-agent',
    label: 'Agent for a job seeker',
    description: 'Profile, queue and matches (read and write), plus job comparisons.',
    scopes: [
      'profile:read',
      'profile:write',
      'queue:read',
      'queue:write',
      'matches:read',
      'matches:write',
      'jobs:read',
    ],
  },
  {
    id: 'recruiter-automation',
    label: 'Recruiter automation',
    description: 'Events, jobs and candidates (read and write), matches, webhooks.',
    scopes: [
      'events:read',
      'events:write',
      'jobs:read',
      'jobs:write',
      'candidates:read',
      'candidates:write',
      'matches:read',
      'webhooks:read',
      'webhooks:write',
    ],
  },
  {
    id: 'read-only',
    label: 'Read-only',
    description: 'Every read scope, nothing that changes anything.',
    scopes: SCOPES.filter((s) => s.endsWith(':read')),
  },
];

export type ScopePresetId = 'seeker-agent' | 'recruiter-automation' | 'read-only';

/** The scopes of a token-page preset: the demo tokens of `npm start` carry these, never all scopes. */
export function presetScopes(id: ScopePresetId): readonly Scope[] {
  const preset = SCOPE_PRESETS.find((p) => p.id === id);
  if (!preset) throw new Error(`unknown scope preset ${id}`);
  return preset.scopes;
}
