import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually, type Harness, type TestUser } from '../helpers/harness';
import {
  checkPage,
  createWebHarness,
  launchBrowser,
  onboardRecruiterInBrowser,
  onboardSeekerInBrowser,
  signUpInBrowser,
} from '../helpers/browser';
import { startReceiver, startSmtp, type Receiver } from '../webhooks/helpers';
import { join, matchesService } from './fixtures';
import { RECRUITER_SCOPES, SCOPES } from '#lib/scopes';

/** Long enough for a person to reach the room after accepting on a loaded machine; short for a test. */
const GRACE_MS = 12_000;

/**
 * No-shows in real browsers: one side comes to the interview room, the other never does. At the
 * arrival deadline (MATCH_NO_SHOW_GRACE_MS after acceptance) the match ends as `no_show`: the
 * person in the room sees it live and by e-mail, the API and the `match.no_show` webhook say who
 * was missing, nothing counts it as an interview, and a seeker whose recruiter did not come can
 * go back to the queue. Also: the seeker's match page shows the report card's next step live.
 */
describe('browser: no-shows and the report card, live', () => {
  let h: Harness;
  let baseUrl: string;
  let browser: Browser;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let rx: Receiver;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    smtp = await startSmtp();
    rx = await startReceiver();
    ({ h, baseUrl } = await createWebHarness({
      SMTP_URL: smtp.url,
      MATCHMAKER_INTERVAL_MS: '100',
      QUEUE_ENTRY_TTL_MS: '600000',
      MATCH_ACCEPT_WINDOW_MS: '600000',
      INTERVIEW_LENGTH_MS: '600000',
      MATCH_NO_SHOW_GRACE_MS: String(GRACE_MS),
    }));
    browser = await launchBrowser({ media: true });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await h?.close();
    await smtp?.close();
    await rx?.close();
  });

  const newPage = async (): Promise<Page> => {
    const c = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(c);
    return c.newPage();
  };
  const decoded = (raw: string) =>
    raw.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const mailTo = (to: string, pattern: RegExp) =>
    smtp.mails.find((m) => m.to.includes(to) && pattern.test(decoded(m.raw)));

  const liveEvent = async (teamId: string, userId: string) => {
    const { liveEvents: events, jobs } = h.app.services.events;
    const slug = `noshow-${Date.now().toString(36)}`;
    const event = await events.create(teamId, userId, {
      slug,
      company_name: 'Acme Robotics',
      headline: 'We build friendly robots',
      visibility: 'open_invite',
      interview_slots: 2,
      accent_color: '#0b6e4f',
    });
    const job = await jobs.create(teamId, {
      live_event_id: event.id,
      title: 'Backend Engineer',
      essential_skills: ['TypeScript'],
      bonus_skills: ['PostgreSQL'],
      experience_min: 2,
      salary_min: null,
      salary_max: null,
      location: 'Berlin',
      remote_preference: 'hybrid',
    });
    await events.transition(teamId, userId, event.id, 'goLive');
    return { slug, jobId: (job as { id: string }).id };
  };
  const userByEmail = async (email: string) => h.knex('users').whereRaw('lower(email) = lower(?)', [email]).first();
  const subscribe = async (token: string, path: string) => {
    const res = await h.call({
      method: 'POST',
      url: '/api/v1/webhooks',
      token,
      payload: { target_url: rx.url(path), events: ['match.no_show', 'interview.completed'] },
    });
    expect(res.statusCode).toBe(201);
  };
  const apiMatch = async (token: string, matchId: string) => {
    const res = await h.call({ method: 'GET', url: '/api/v1/matches', token });
    return (res.json() as { matches: Array<Record<string, unknown>> }).matches.find((m) => m.id === matchId);
  };
  const enterRoom = async (page: Page, matchId: string) => {
    await page.goto(`${baseUrl}/matches/${matchId}`);
    await Promise.all([
      page.waitForURL(/\/rooms\//),
      page.getByRole('button', { name: 'Enter the interview room' }).click(),
    ]);
    await page.locator('#precheck[data-precheck-state="ready"]').waitFor({ timeout: 15_000 });
    await page.getByRole('button', { name: 'Join the interview' }).click();
    await page.locator('#room-status-text:has-text("Waiting for the other person")').waitFor({ timeout: 15_000 });
  };
  /** Never an interview: no interview.completed event, no completion time, and the slot is free again. */
  const notAnInterview = async (matchId: string) => {
    const row = await h.knex('matches').where({ id: matchId }).first();
    expect(row).toMatchObject({ status: 'no_show', completed_at: null, interview_started_at: null });
    expect(
      await h.knex('domain_events').where({ type: 'interview.completed' }).whereRaw("data->>'match_id' = ?", [matchId]),
    ).toHaveLength(0);
    expect(await h.knex('interview_reports').where({ match_id: matchId })).toHaveLength(0);
    await eventually(async () => (await h.knex('match_offers').where({ id: matchId }).first())?.status === 'closed');
  };

  it(
    'the recruiter never comes: the seeker alone cannot end it as an interview, sees the no-show ' +
      'live, is e-mailed, and goes back to the queue',
    async () => {
      const rec: TestUser = await h.recruiter();
      const { slug, jobId } = await liveEvent(rec.teamId!, rec.user.id);
      const seeker = await newPage();
      const { email: seekerEmail } = await signUpInBrowser(seeker, baseUrl, {
        role: 'seeker',
        name: 'Sam Seeker',
        next: `/events/${slug}`,
      });
      await onboardSeekerInBrowser(seeker);
      const seekerUser = await userByEmail(seekerEmail);
      const seekerToken = (
        await h.app.services.accounts.tokens.mint(seekerUser.id, {
          name: 'agent',
          scopes: SCOPES.filter((x) => !RECRUITER_SCOPES.has(x)),
        })
      ).token;
      await subscribe(seekerToken, '/seeker');

      await seeker.getByRole('button', { name: 'Join the queue for Acme Robotics' }).click();
      await seeker.locator('#matched-box').waitFor({ state: 'visible', timeout: 30_000 });
      await Promise.all([seeker.waitForURL(/\/matches\/[0-9a-f-]{36}$/), seeker.locator('#matched-link').click()]);
      const matchId = new URL(seeker.url()).pathname.split('/').pop()!;
      await seeker.getByRole('button', { name: 'Accept match' }).click();
      await seeker.locator('.notice:has-text("You accepted")').waitFor();
      await matchesService(h).accept({ userId: rec.user.id, matchId });
      await seeker.locator('#arrivals').waitFor({ timeout: 15_000 });
      expect(await seeker.locator('#arrivals').textContent()).toContain('the match ends as a no-show');
      await checkPage(seeker, 'noshow-01-match-accepted-arrivals');

      // Alone in the room: "End the interview" is not offered, and ending anyway changes nothing.
      await enterRoom(seeker, matchId);
      await eventually(async () => (await h.knex('matches').where({ id: matchId }).first()).seeker_in_room_at);
      expect(await seeker.locator('#end-control').isHidden()).toBe(true);
      expect(await seeker.locator('#room-clock-hint').textContent()).toContain('the match ends as a no-show');
      await checkPage(seeker, 'noshow-02-room-alone');
      const refused = (await seeker.evaluate(
        `fetch('/rooms/${matchId}/complete', { method: 'POST', credentials: 'same-origin', headers: { accept: 'application/json', 'x-csrf-token': window.JobFair.csrf } }).then((r) => r.status)`,
      )) as number;
      expect(refused).toBe(409);
      expect((await h.knex('matches').where({ id: matchId }).first()).status).toBe('accepted');

      // The deadline passes: the room page leaves for the match page by itself, which says so.
      await seeker.waitForURL(new RegExp(`/matches/${matchId}$`), { timeout: GRACE_MS + 20_000 });
      await seeker.locator('[data-match-status="no_show"]').waitFor({ timeout: 10_000 });
      expect(await seeker.locator('#no-show').getAttribute('data-no-show-missing')).toBe('recruiter');
      expect(await seeker.locator('#no-show-h').textContent()).toBe('The recruiter did not come');
      // Nobody is going to meet anyone any more: the job panel says who it was to be.
      expect(await seeker.locator('[data-interviewer]').textContent()).toMatch(
        /^The interviewer was to be .+, a recruiter of /,
      );
      await checkPage(seeker, 'noshow-03-match-seeker-recruiter-missing');

      // The API, the webhook and the e-mail say who was missing; nothing counts it as an interview.
      expect(await apiMatch(seekerToken, matchId)).toMatchObject({ status: 'no_show', no_show_missing: 'recruiter' });
      const hook = await eventually(async () => rx.received.find((r) => r.json.type === 'match.no_show'), 15_000);
      expect(hook.url).toBe('/seeker');
      expect(hook.json.data).toMatchObject({ match_id: matchId, missing: 'recruiter', job_id: jobId });
      await eventually(async () => mailTo(seekerEmail, /Subject: The recruiter did not come/), 15_000);
      expect(decoded(mailTo(seekerEmail, /Subject: The recruiter did not come/)!.raw)).toContain(
        'not count as an interview',
      );
      await notAnInterview(matchId);

      // Back to the queue for the same event: a new entry, and the same job may be offered again.
      await Promise.all([
        seeker.waitForURL(new RegExp(`/events/${slug}$`)),
        seeker.getByRole('button', { name: 'Back to the queue' }).click(),
      ]);
      await seeker.locator('#queue-status').waitFor();
      const again = await eventually(
        async () => h.knex('matches').where({ seeker_user_id: seekerUser.id }).whereNot({ id: matchId }).first(),
        30_000,
      );
      expect(again.job_id).toBe(jobId);
    },
    180_000,
  );

  it(
    'the seeker never comes: the recruiter in the room sees the no-show live and is e-mailed; no ' +
      'report card is asked for',
    async () => {
      const recruiter = await newPage();
      const { email: recEmail } = await signUpInBrowser(recruiter, baseUrl, { role: 'recruiter', name: 'Rita' });
      await onboardRecruiterInBrowser(recruiter, { team: 'No-show Hiring' });
      const recUser = await userByEmail(recEmail);
      const { team_id: teamId } = await h.knex('team_members').where({ user_id: recUser.id }).first();
      const recToken = (await h.app.services.accounts.tokens.mint(recUser.id, { name: 'ci', scopes: SCOPES })).token;
      await subscribe(recToken, '/team');
      const { slug } = await liveEvent(teamId, recUser.id);
      const s = await h.seeker({ profile: { skills: ['TypeScript', 'PostgreSQL'] } as never });
      await join(h, s, slug);
      const match = await eventually(async () => h.knex('matches').where({ seeker_user_id: s.user.id }).first());
      await matchesService(h).accept({ userId: s.user.id, matchId: match.id });
      await matchesService(h).accept({ userId: recUser.id, matchId: match.id });

      await enterRoom(recruiter, match.id);
      expect(await recruiter.locator('#end-control').isHidden()).toBe(true);
      await recruiter.waitForURL(new RegExp(`/matches/${match.id}$`), { timeout: GRACE_MS + 20_000 });
      await recruiter.locator('[data-match-status="no_show"]').waitFor({ timeout: 10_000 });
      expect(await recruiter.locator('#no-show').getAttribute('data-no-show-missing')).toBe('seeker');
      expect(await recruiter.locator('#report-card').count()).toBe(0);
      await checkPage(recruiter, 'noshow-04-match-recruiter-seeker-missing');

      expect(await apiMatch(recToken, match.id)).toMatchObject({ status: 'no_show', no_show_missing: 'seeker' });
      const hook = await eventually(
        async () => rx.received.find((r) => r.json.type === 'match.no_show' && r.json.data.match_id === match.id),
        15_000,
      );
      expect(hook.url).toBe('/team');
      expect(hook.json.data).toMatchObject({ missing: 'seeker' });
      await eventually(async () => mailTo(recEmail, /Subject: The candidate did not come/), 15_000);
      await notAnInterview(match.id);
      // The report card cannot be filed for it.
      await expect(
        matchesService(h).submitReport({
          userId: recUser.id,
          matchId: match.id,
          report: { fit: 3, communication: 3, technical: 3, outcome: 'pass', notes: '' },
        }),
      ).rejects.toMatchObject({ status: 409, code: 'MATCH_NOT_COMPLETED' });
    },
    180_000,
  );

  it("the seeker's match page shows the report card's next step without a reload", async () => {
    const rec = await h.recruiter();
    const { slug } = await liveEvent(rec.teamId!, rec.user.id);
    const seeker = await newPage();
    const { email } = await signUpInBrowser(seeker, baseUrl, { role: 'seeker', next: `/events/${slug}` });
    await onboardSeekerInBrowser(seeker);
    const seekerUser = await userByEmail(email);
    await seeker.getByRole('button', { name: 'Join the queue for Acme Robotics' }).click();
    const match = await eventually(
      async () => h.knex('matches').where({ seeker_user_id: seekerUser.id }).first(),
      30_000,
    );
    const svc = matchesService(h);
    await svc.accept({ userId: seekerUser.id, matchId: match.id });
    await svc.accept({ userId: rec.user.id, matchId: match.id });
    await svc.completeInterview({ userId: rec.user.id, matchId: match.id });
    await seeker.goto(`${baseUrl}/matches/${match.id}`);
    await seeker.locator('[data-match-status="completed"]').waitFor();
    await seeker.locator('body[data-live="connected"]').waitFor();
    await seeker.evaluate('window.__notReloaded = true');
    expect(await seeker.locator('#next-step').textContent()).toContain('The recruiter is writing up the interview');

    await svc.submitReport({
      userId: rec.user.id,
      matchId: match.id,
      report: { fit: 5, communication: 4, technical: 5, outcome: 'advance', notes: 'Strong' },
    });
    await seeker
      .locator('#next-step:has-text("the recruiter wants to continue with you")')
      .waitFor({ timeout: 10_000 });
    await seeker.locator('#contact-details').waitFor();
    expect(await seeker.evaluate('window.__notReloaded')).toBe(true);
    await checkPage(seeker, 'noshow-05-match-seeker-report-live');
  }, 120_000);
});
