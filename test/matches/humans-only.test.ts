import { createHarness, type Harness } from '../helpers/harness';
import { createJob, createLiveEvent, join, matchOf } from './fixtures';
import { collectRoutes, fillParams } from '../platform/helpers';

/**
 * The spec's humans-only rule: no token can accept a match or enter the room. Every /api/v1
 * route (found from the router, not a hand list) is called by both parties' all-scope tokens
 * with the match's id in every path parameter; the match stays unaccepted. The web routes that
 * accept or open the room refuse a bearer token without a session.
 */
/** A recruiter's event with one job, a seeker who joined it, and the match the matchmaker made. */
async function matchedPair(h: Harness) {
  const rec = await h.recruiter();
  const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 1 });
  await createJob(h, { event });
  const seeker = await h.seeker();
  await join(h, seeker, event.slug);
  return { rec, seeker, match: await matchOf(h, seeker.user.id) };
}

describe('humans-only: tokens never accept a match or enter the room', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      env: {
        MATCHMAKER_INTERVAL_MS: '50',
        MATCH_ACCEPT_WINDOW_MS: '600000',
        RATE_LIMIT_READ_PER_MIN: '1000',
        RATE_LIMIT_WRITE_PER_MIN: '1000',
        RATE_LIMIT_COST_PER_MIN: '1000',
      },
    });
  });
  afterAll(async () => h?.close());

  it('no /api/v1 route moves a match to accepted, whatever it is sent', async () => {
    const { rec, seeker, match } = await matchedPair(h);

    const routes = (await collectRoutes(h)).filter(
      (r) => r.url.startsWith('/api/v1/') && r.config.scope && r.method !== 'HEAD',
    );
    expect(routes.length).toBeGreaterThan(30);
    const bodies = [{}, { accept: true, accepted: true, status: 'accepted', match_id: match.id, reason: 'x' }];
    for (const r of routes) {
      // Leave the decline and queue-leave routes out: declining (and leaving, which declines the
      // pending match) is allowed by token and would end the match.
      if (r.url.endsWith('/decline') || r.url.endsWith('/queue/leave')) continue;
      for (const token of [seeker.token, rec.token]) {
        for (const payload of r.method === 'GET' || r.method === 'DELETE' ? [undefined] : bodies) {
          const res = await h.call({
            method: r.method as 'POST',
            url: fillParams(r.url, () => match.id),
            token,
            payload,
          });
          expect(res.statusCode).toBeLessThan(500);
        }
      }
    }
    const row = await h.knex('matches').where({ id: match.id }).first();
    expect(row).toMatchObject({ status: 'matched', seeker_accepted_at: null, recruiter_accepted_at: null });
  });

  it('the web accept and room routes refuse a bearer token without a session', async () => {
    const { seeker, match } = await matchedPair(h);
    for (const url of [`/matches/${match.id}/accept`, `/matches/${match.id}/room`]) {
      const res = await h.call({ method: 'POST', url, token: seeker.token, payload: {} });
      expect([302, 303, 401, 403]).toContain(res.statusCode);
    }
    const room = await h.call({ method: 'GET', url: `/rooms/${match.id}`, token: seeker.token });
    expect([302, 303, 401, 403, 404]).toContain(room.statusCode);
    const row = await h.knex('matches').where({ id: match.id }).first();
    expect(row).toMatchObject({ status: 'matched', seeker_accepted_at: null });
  });
});
