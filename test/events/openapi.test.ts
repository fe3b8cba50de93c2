import { createHarness, type Harness } from '../helpers/harness';

/** Every route of the events-and-jobs capability is in the OpenAPI document, with its operationId and security. */
const OPERATIONS: Array<[string, string, string, string | null]> = [
  ['get', '/api/v1/live-events/live-now', 'listLiveNowEvents', null],
  ['get', '/api/v1/jobs/search', 'searchJobs', null],
  ['get', '/api/v1/events/{slug}', 'getPublicEvent', null],
  ['get', '/api/v1/live-events', 'listPublicLiveEvents', null],
  ['post', '/api/v1/live-events', 'createLiveEvent', 'events:write'],
  ['get', '/api/v1/team/live-events', 'listTeamLiveEvents', 'events:read'],
  ['get', '/api/v1/team/live-events/{eventId}', 'getTeamLiveEvent', 'events:read'],
  ['patch', '/api/v1/team/live-events/{eventId}', 'updateTeamLiveEvent', 'events:write'],
  ['post', '/api/v1/live-events/{eventId}/go-live', 'goLiveEvent', 'events:write'],
  ['post', '/api/v1/live-events/{eventId}/pause', 'pauseEvent', 'events:write'],
  ['post', '/api/v1/live-events/{eventId}/resume', 'resumeEvent', 'events:write'],
  ['post', '/api/v1/live-events/{eventId}/end', 'endEvent', 'events:write'],
  ['post', '/api/v1/jobs', 'createJob', 'jobs:write'],
  ['get', '/api/v1/jobs', 'listTeamJobs', 'jobs:read'],
  ['get', '/api/v1/jobs/{jobId}', 'getTeamJob', 'jobs:read'],
  ['patch', '/api/v1/jobs/{jobId}', 'updateTeamJob', 'jobs:write'],
  ['post', '/api/v1/jobs/{jobId}/close', 'closeTeamJob', 'jobs:write'],
  ['get', '/api/v1/candidates', 'listCandidates', 'candidates:read'],
  ['get', '/api/v1/candidates/{userId}', 'getCandidate', 'candidates:read'],
  ['put', '/api/v1/candidates/{userId}/note', 'putCandidateNote', 'candidates:write'],
  ['get', '/api/v1/settings', 'getSettings', 'settings:read'],
  ['patch', '/api/v1/settings', 'updateSettings', 'settings:write'],
  ['post', '/api/v1/team/invites', 'createTeamInvite', 'settings:write'],
  ['get', '/api/v1/team/invites', 'listTeamInvites', 'settings:read'],
  ['delete', '/api/v1/team/invites/{inviteId}', 'revokeTeamInvite', 'settings:write'],
];

describe('OpenAPI: events and jobs', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ worker: false });
  });
  afterAll(async () => h?.close());

  it('documents every route with its operationId, security, and the search parameters', async () => {
    const res = await h.call({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    const missing: string[] = [];
    for (const [method, path, operationId, scope] of OPERATIONS) {
      const op = doc.paths[path]?.[method];
      if (!op) {
        missing.push(`${method.toUpperCase()} ${path}`);
        continue;
      }
      expect([path, op.operationId]).toEqual([path, operationId]);
      expect([path, op.security]).toEqual([path, scope ? [{ bearerAuth: [scope] }] : []]);
      expect(op.responses['200'] ?? op.responses['201']).toBeDefined();
    }
    expect(missing).toEqual([]);
    const search = doc.paths['/api/v1/jobs/search'].get;
    expect(search.parameters.map((p: { name?: string }) => p.name).filter(Boolean)).toEqual(
      expect.arrayContaining(['skills', 'remote', 'location', 'salary_min', 'limit']),
    );
    for (const schema of [
      'LiveEvent',
      'Job',
      'JobSearchHit',
      'TeamLiveEvent',
      'TeamJob',
      'Candidate',
      'Settings',
      'TeamInvite',
    ])
      expect(doc.components.schemas[schema]).toBeDefined();
    expect(doc.components.schemas.LiveEvent.properties.status.enum).toEqual(['live', 'paused']);
  });
});
