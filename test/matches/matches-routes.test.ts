import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHarness, type Harness, type TestUser } from '../helpers/harness';
import { createJob, createLiveEvent, join, matchOf, matchesService } from './fixtures';
import { freePort } from '#dev/ports';
import { ROOM_URL_COST_BUCKET_MS } from '#apps/api/src/matches/matches-routes';
import { withinOneCostBucket } from '../helpers/cost-bucket';

const UNKNOWN = '00000000-0000-4000-8000-000000000000';

async function matched(h: Harness) {
  const rec = await h.recruiter();
  const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 1 });
  const job = await createJob(h, { event, title: 'Site Reliability Engineer' });
  const seeker = await h.seeker();
  await join(h, seeker, event.slug);
  const match = await matchOf(h, seeker.user.id);
  return { rec, event, job, seeker, match };
}

describe('matches routes: auth, roles, tenants, validation', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      env: { MATCHMAKER_INTERVAL_MS: '50', MATCH_ACCEPT_WINDOW_MS: '600000', INTERVIEW_LENGTH_MS: '600000' },
    });
  });
  afterAll(async () => h?.close());

  it(
    "GET /matches: a seeker sees their own, a recruiter their team's (role set), other tenants " +
      'nothing; limit 1–50',
    async () => {
      const { rec, seeker, match, job, event } = await matched(h);
      const teammate = await h.recruiter({ teamId: rec.teamId! });
      const otherTeam = await h.recruiter();
      const otherSeeker = await h.seeker();

      const s = await h.call({ method: 'GET', url: '/api/v1/matches', token: seeker.token });
      expect(s.statusCode).toBe(200);
      expect(s.headers['x-ratelimit-limit']).toBe('60');
      expect(s.json().matches).toEqual([
        expect.objectContaining({
          id: match.id,
          status: 'matched',
          role: 'seeker',
          job_id: job.id,
          job_title: 'Site Reliability Engineer',
          live_event_slug: event.slug,
          details_url: `http://jobfair.test/matches/${match.id}`,
          seeker_accepted: false,
          recruiter_accepted: false,
          score_version: 'v2',
          joined_via_agent: true,
        }),
      ]);
      expect(s.json().matches[0].match_score).toBe(match.match_score);
      expect(new Date(s.json().matches[0].expires_at).getTime()).toBeGreaterThan(Date.now());

      const r = (await h.call({ method: 'GET', url: '/api/v1/matches', token: teammate.token })).json();
      expect(r.matches.map((m: { id: string; role: string }) => [m.id, m.role])).toEqual([[match.id, 'recruiter']]);
      expect((await h.call({ method: 'GET', url: '/api/v1/matches', token: otherTeam.token })).json().matches).toEqual(
        [],
      );
      expect(
        (await h.call({ method: 'GET', url: '/api/v1/matches', token: otherSeeker.token })).json().matches,
      ).toEqual([]);

      expect((await h.call({ method: 'GET', url: '/api/v1/matches?limit=1', token: seeker.token })).statusCode).toBe(
        200,
      );
      for (const bad of ['0', '51', 'x']) {
        const res = await h.call({ method: 'GET', url: `/api/v1/matches?limit=${bad}`, token: seeker.token });
        expect(res.statusCode).toBe(400);
        expect(res.json().code).toBe('VALIDATION');
      }
    },
  );

  it('401 without or with a bad token, 403 INSUFFICIENT_SCOPE without the scope, on every route', async () => {
    const { seeker, match } = await matched(h);
    const readOnly = await seeker.tokenWith(['queue:read']);
    const routes = [
      { method: 'GET' as const, url: '/api/v1/matches', scope: 'matches:read' },
      {
        method: 'POST' as const,
        url: `/api/v1/matches/${match.id}/decline`,
        scope: 'matches:write',
        payload: { reason: 'x' },
      },
      { method: 'GET' as const, url: `/api/v1/matches/${match.id}/interview-room-url`, scope: 'matches:read' },
    ];
    for (const r of routes) {
      const none = await h.call({ method: r.method, url: r.url, payload: r.payload });
      expect(none.statusCode).toBe(401);
      expect(none.json().code).toBe('UNAUTHENTICATED');
      const bogus = await h.call({ method: r.method, url: r.url, payload: r.payload, token: 'svc_not_a_real_token' });
      expect(bogus.statusCode).toBe(401);
      const scoped = await h.call({ method: r.method, url: r.url, payload: r.payload, token: readOnly });
      expect(scoped.statusCode).toBe(403);
      expect(scoped.json()).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required_scope: r.scope } });
    }
    // Nothing was declined by the refused calls.
    expect((await h.knex('matches').where({ id: match.id }).first()).status).toBe('matched');
  });

  it('decline: validation, 404 for non-parties (other seeker, other team) and unknown ids, no side effect', async () => {
    const { seeker, match, rec } = await matched(h);
    const otherTeam = await h.recruiter();
    const otherSeeker = await h.seeker();
    const url = `/api/v1/matches/${match.id}/decline`;
    for (const payload of [
      undefined,
      {},
      { reason: '' },
      { reason: '   ' },
      { reason: 'x'.repeat(501) },
      { reason: 'ok', extra: 1 },
      { reason: 5 },
    ]) {
      const res = await h.call({ method: 'POST', url, token: seeker.token, payload });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('VALIDATION');
    }
    const badId = await h.call({
      method: 'POST',
      url: '/api/v1/matches/not-a-uuid/decline',
      token: seeker.token,
      payload: { reason: 'x' },
    });
    expect(badId.statusCode).toBe(400);
    for (const t of [otherTeam.token, otherSeeker.token]) {
      const res = await h.call({ method: 'POST', url, token: t, payload: { reason: 'not mine' } });
      expect(res.statusCode).toBe(404);
      expect(res.json().code).toBe('NOT_FOUND');
    }
    const unknown = await h.call({
      method: 'POST',
      url: `/api/v1/matches/${UNKNOWN}/decline`,
      token: seeker.token,
      payload: { reason: 'x' },
    });
    expect(unknown.statusCode).toBe(404);
    expect((await h.knex('matches').where({ id: match.id }).first()).status).toBe('matched');

    // A replay with the same Idempotency-Key answers the same without a second decline.
    const key = '3b241101-e2bb-4255-8caf-4136c566a962';
    const first = await h.call({
      method: 'POST',
      url,
      token: rec.token,
      payload: { reason: 'Filled' },
      headers: { 'idempotency-key': key },
    });
    expect(first.statusCode).toBe(200);
    const replay = await h.call({
      method: 'POST',
      url,
      token: rec.token,
      payload: { reason: 'Filled' },
      headers: { 'idempotency-key': key },
    });
    expect(replay.statusCode).toBe(200);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(replay.json()).toEqual(first.json());
  });

  it(
    'interview-room-url: 404 for non-parties, 409 before acceptance, cost class with a ' + 'per-minute replay bucket',
    async () => {
      const { seeker, match, rec } = await matched(h);
      const otherTeam = await h.recruiter();
      const url = `/api/v1/matches/${match.id}/interview-room-url`;
      const nope = await h.call({ method: 'GET', url, token: otherTeam.token });
      expect(nope.statusCode).toBe(404);
      expect(
        (await h.call({ method: 'GET', url: `/api/v1/matches/${UNKNOWN}/interview-room-url`, token: seeker.token }))
          .statusCode,
      ).toBe(404);
      const early = await h.call({ method: 'GET', url, token: seeker.token });
      expect(early.statusCode).toBe(409);
      expect(early.json()).toMatchObject({ code: 'MATCH_NOT_ACCEPTED', details: { status: 'matched' } });
      expect(early.headers['x-ratelimit-limit']).toBe('3');

      const svc = matchesService(h);
      await svc.accept({ userId: seeker.user.id, matchId: match.id });
      await svc.accept({ userId: rec.user.id, matchId: match.id });
      const token = await rec.tokenWith(['matches:read']);
      await withinOneCostBucket(ROOM_URL_COST_BUCKET_MS);
      const a = await h.call({ method: 'GET', url, token });
      expect(a.statusCode).toBe(200);
      const remaining = Number(a.headers['x-ratelimit-remaining']);
      // Within the bucket: the same URL, no quota used.
      const b = await h.call({ method: 'GET', url, token });
      expect(b.statusCode).toBe(200);
      expect(b.json()).toEqual(a.json());
      expect(b.headers['idempotent-replayed']).toBe('true');
      expect(Number(b.headers['x-ratelimit-remaining'])).toBe(remaining);
      // The seeker's own earlier refusal was not kept in its bucket: now it gets the URL.
      const seekerNow = await h.call({ method: 'GET', url, token: seeker.token });
      expect(seekerNow.statusCode).toBe(200);
      // The bucketed answer carries a signed room token: stored sealed, never in plain text.
      const roomToken = new URL(a.json().room_url).searchParams.get('t')!;
      expect(roomToken.length).toBeGreaterThan(10);
      expect(JSON.stringify(await h.knex('idempotency_keys').select('response_body'))).not.toContain(roomToken);
    },
  );

  it('the OpenAPI document describes the three routes', async () => {
    const doc = (await h.call({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    const ops = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>).flatMap((p) =>
      Object.values(p).map((o) => o.operationId),
    );
    expect(ops).toEqual(expect.arrayContaining(['listMatches', 'declineMatch', 'getInterviewRoomUrl']));
    expect(doc.paths['/api/v1/matches/{id}/interview-room-url'].get.responses).toHaveProperty('409');
  });
});

describe('interview-room-url with a hosted video provider', () => {
  let h: Harness;
  let provider: http.Server;
  let providerUp = true;
  let requests: Array<Record<string, unknown>> = [];
  let deadPort: number;
  let hDown: Harness;

  beforeAll(async () => {
    provider = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        if (!providerUp) {
          res.writeHead(502).end();
          return;
        }
        const parsed = JSON.parse(body);
        requests.push(parsed);
        res
          .writeHead(201, { 'content-type': 'application/json' })
          .end(JSON.stringify({ url: `https://video.example/r/${parsed.room}/${parsed.participant}` }));
      });
    });
    await new Promise<void>((r) => provider.listen(0, '127.0.0.1', r));
    const port = (provider.address() as AddressInfo).port;
    h = await createHarness({ env: { MATCHMAKER_INTERVAL_MS: '50', VIDEO_PROVIDER_URL: `http://127.0.0.1:${port}` } });
    // Nothing listens on this port: the provider is down.
    deadPort = await freePort();
    hDown = await createHarness({
      env: { MATCHMAKER_INTERVAL_MS: '50', VIDEO_PROVIDER_URL: `http://127.0.0.1:${deadPort}` },
    });
  });
  afterAll(async () => {
    await h?.close();
    await hDown?.close();
    await new Promise((r) => provider.close(r));
  });

  const acceptedMatch = async (hh: Harness): Promise<{ seeker: TestUser; matchId: string }> => {
    const { seeker, match, rec } = await matched(hh);
    const svc = matchesService(hh);
    await svc.accept({ userId: seeker.user.id, matchId: match.id });
    await svc.accept({ userId: rec.user.id, matchId: match.id });
    return { seeker, matchId: match.id };
  };

  it(
    "returns the provider's URL; a provider error is 503 DEPENDENCY_UNAVAILABLE with " +
      'Retry-After and is not bucketed',
    async () => {
      const { seeker, matchId } = await acceptedMatch(h);
      requests = [];
      providerUp = false;
      const down = await h.call({
        method: 'GET',
        url: `/api/v1/matches/${matchId}/interview-room-url`,
        token: seeker.token,
        retry: false,
      });
      expect(down.statusCode).toBe(503);
      expect(down.json().code).toBe('DEPENDENCY_UNAVAILABLE');
      expect(down.headers['retry-after']).toBe('5');
      providerUp = true;
      const up = await h.call({
        method: 'GET',
        url: `/api/v1/matches/${matchId}/interview-room-url`,
        token: seeker.token,
      });
      expect(up.statusCode).toBe(200);
      expect(up.json().room_url).toBe(`https://video.example/r/${matchId}/${seeker.user.id}`);
      expect(requests).toEqual([
        expect.objectContaining({ room: matchId, participant: seeker.user.id, role: 'seeker' }),
      ]);
    },
  );

  it('an unreachable provider → 503 DEPENDENCY_UNAVAILABLE', async () => {
    const { seeker, matchId } = await acceptedMatch(hDown);
    const res = await hDown.call({
      method: 'GET',
      url: `/api/v1/matches/${matchId}/interview-room-url`,
      token: seeker.token,
      retry: false,
    });
    expect(res.statusCode).toBe(503);
    expect(res.json()).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE' });
  });
});
