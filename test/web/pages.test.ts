import { createHarness, eventually, type Harness, type TestUser } from '../helpers/harness';
import { createJob, createLiveEvent, matchOf, matchesService } from '../matches/fixtures';
import { WEB_AGENT_IDENTITY } from '#apps/api/src/queue/queue-pages';
import { WebClient } from '../helpers/web-client';

/** Error paths and access rules of the pages, without a browser. */
describe('web pages: access, errors, queue join from a session', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      env: { MATCHMAKER_INTERVAL_MS: '50', QUEUE_ENTRY_TTL_MS: '600000', MATCH_ACCEPT_WINDOW_MS: '600000' },
    });
  });
  afterAll(async () => h?.close());

  const as = async (u: TestUser) => {
    const c = new WebClient(h.app);
    c.cookies.set(
      'jf_session',
      (await h.app.services.accounts.sessions.create(u.user.id, { ip: null, userAgent: null })).token,
    );
    return c;
  };
  const noStack = (body: string) => expect(body).not.toMatch(/at .+\.(ts|js):\d+/);

  it('sends signed-out visitors to sign in (pages) or answers 401 (JSON endpoints)', async () => {
    const c = new WebClient(h.app);
    const page = await c.get('/matches');
    expect(page.statusCode).toBe(303);
    expect(page.headers.location).toBe('/login?next=%2Fmatches');
    const json = await c.get('/queue/status.json');
    expect(json.statusCode).toBe(401);
    expect(json.json()).toMatchObject({ code: 'LOGIN_REQUIRED' });
    const home = await c.get('/');
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('Create an account');
  });

  it(
    'keeps recruiters-only pages from seekers and hides other tenants and drafts (HTML errors, ' + 'no stack traces)',
    async () => {
      const seeker = await h.seeker();
      const sc = await as(seeker);
      const consolePage = await sc.get('/recruiter');
      expect(consolePage.statusCode).toBe(403);
      expect(consolePage.headers['content-type']).toMatch(/text\/html/);
      expect(consolePage.body).toContain('The console is for recruiters');
      noStack(consolePage.body);

      const rec = await h.recruiter();
      const draft = await createLiveEvent(h, { teamId: rec.teamId!, slots: 1, status: 'draft' });
      expect((await sc.get(`/events/${draft.slug}`)).statusCode).toBe(404);
      expect((await (await as(rec)).get(`/events/${draft.slug}`)).statusCode).toBe(200);
      const missing = await sc.get('/events/no-such-event');
      expect(missing.statusCode).toBe(404);
      expect(missing.body).toContain('Page not found');
      expect((await sc.get('/matches/not-a-uuid')).statusCode).toBe(404);
      expect((await sc.get('/recruiter/events/00000000-0000-4000-8000-000000000000')).statusCode).toBe(403);
      const otherRec = await h.recruiter();
      expect((await (await as(otherRec)).get(`/recruiter/events/${draft.id}`)).statusCode).toBe(404);
    },
  );

  it(
    'joins the queue from a session through the queue use-case (not via agent), polls status, ' +
      'and refuses what the use-case refuses',
    async () => {
      const rec = await h.recruiter();
      const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 0 });
      await createJob(h, { event });

      const fresh = await h.seeker({ onboarded: false });
      const fc = await as(fresh);
      const page0 = await fc.get(`/events/${event.slug}`);
      const needsProfile = await fc.post(`/events/${event.slug}/join`, {}, { csrf: WebClient.csrfOf(page0.body) });
      expect(needsProfile.statusCode).toBe(303);
      expect(needsProfile.headers.location).toBe(`/onboarding?next=${encodeURIComponent(`/events/${event.slug}`)}`);

      const rc = await as(rec);
      const rpage = await rc.get('/queue');
      const refused = await rc.post('/queue/join', {}, { csrf: WebClient.csrfOf(rpage.body) });
      expect(refused.statusCode).toBe(403);
      expect(refused.body).toContain('Only job seekers can join');

      const seeker = await h.seeker();
      const c = await as(seeker);
      const page = await c.get(`/events/${event.slug}`);
      expect(page.body).toContain(`Join the queue for Company ${event.slug}`);
      const joined = await c.post(`/events/${event.slug}/join`, {}, { csrf: WebClient.csrfOf(page.body) });
      expect(joined.statusCode).toBe(303);
      const entry = await h.knex('queue_entries').where({ user_id: seeker.user.id }).first();
      expect(entry).toMatchObject({
        status: 'waiting',
        live_event_id: event.id,
        via_agent: false,
        agent_identity: WEB_AGENT_IDENTITY,
      });
      const status = (await c.get('/queue/status.json')).json();
      expect(status.queue_entry).toMatchObject({
        id: entry.id,
        status: 'waiting',
        position: 1,
        match_id: null,
        match_url: null,
      });
      const after = await c.get(`/events/${event.slug}`);
      expect(after.body).toContain('id="queue-status"');
      expect(after.body).toContain('data-status="waiting"');

      // Leaving goes through the same use-case as POST /api/v1/queue/leave.
      expect(after.body).toContain('Leave the queue');
      const left = await c.post('/queue/leave', {}, { csrf: WebClient.csrfOf(after.body) });
      expect(left.statusCode).toBe(303);
      expect(left.headers.location).toBe(`/events/${event.slug}?done=left-queue`);
      expect((await h.knex('queue_entries').where({ id: entry.id }).first()).status).toBe('left');
      const back = await c.get(`/events/${event.slug}?done=left-queue`);
      expect(back.body).toContain('You left the queue.');
      expect(back.body).toContain('was left');
      expect(back.body).toContain(`Join the queue for Company ${event.slug}`);
    },
  );

  it(
    'accept and decline answer with the current state when the match has moved on (409), and ' + '404 for strangers',
    async () => {
      const rec = await h.recruiter();
      const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 1 });
      await createJob(h, { event });
      const seeker = await h.seeker();
      const c = await as(seeker);
      const page = await c.get(`/events/${event.slug}`);
      await c.post(`/events/${event.slug}/join`, {}, { csrf: WebClient.csrfOf(page.body) });
      const match = await matchOf(h, seeker.user.id);
      await eventually(async () =>
        (await c.get('/queue/status.json')).json().queue_entry?.match_url === `/matches/${match.id}` ? true : null,
      );

      // TEMPORAL_UI_URL is unset here: not even the team's owner gets a Temporal UI link.
      const ownerView = await (await as(rec)).get(`/matches/${match.id}`);
      expect(ownerView.statusCode).toBe(200);
      expect(ownerView.body).not.toContain('temporal-ui-link');

      const stranger = await as(await h.seeker());
      expect((await stranger.get(`/matches/${match.id}`)).statusCode).toBe(404);
      expect((await stranger.get(`/matches/${match.id}/state.json`)).statusCode).toBe(404);

      await matchesService(h).decline({ userId: rec.user.id, matchId: match.id, reason: 'Position filled' });
      const mp = await c.get(`/matches/${match.id}`);
      expect(mp.body).toContain('data-match-status="declined"');
      expect(mp.body).toContain('Position filled');
      const accept = await c.post(`/matches/${match.id}/accept`, {}, { csrf: WebClient.csrfOf(mp.body) });
      expect(accept.statusCode).toBe(409);
      expect(accept.body).toContain('the match changed in the meantime');
      noStack(accept.body);
      const room = await c.post(`/matches/${match.id}/room`, {}, { csrf: WebClient.csrfOf(mp.body) });
      expect(room.statusCode).toBe(409);
    },
  );
});
