import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually, type Harness } from '../helpers/harness';
import {
  checkPage,
  createWebHarness,
  launchBrowser,
  onboardRecruiterInBrowser,
  onboardSeekerInBrowser,
  screenshot,
  signUpInBrowser,
} from '../helpers/browser';

/**
 * Two real browsers (seeker and recruiter, fake camera and microphone) go from the event page
 * through matching and acceptance into the interview room and meet over WebRTC.
 */
describe('browser: event page → queue → match → both accept → interview room; decline path', () => {
  let h: Harness;
  let baseUrl: string;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    ({ h, baseUrl } = await createWebHarness({
      MATCHMAKER_INTERVAL_MS: '100',
      QUEUE_ENTRY_TTL_MS: '600000',
      MATCH_ACCEPT_WINDOW_MS: '600000',
      INTERVIEW_LENGTH_MS: '600000',
    }));
    browser = await launchBrowser({ media: true });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await h?.close();
  });

  const newPage = async (): Promise<Page> => {
    const c = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    contexts.push(c);
    return c.newPage();
  };

  /** Sets the event up through the same services the recruiter console and API use. */
  const liveEventFor = async (recruiterEmail: string, slots: number) => {
    const user = await h.knex('users').whereRaw('lower(email) = lower(?)', [recruiterEmail]).first();
    const { team_id: teamId } = await h.knex('team_members').where({ user_id: user.id }).first();
    const { liveEvents: events, jobs } = h.app.services.events;
    const slug = `acme-${Date.now().toString(36)}`;
    const event = await events.create(teamId, user.id, {
      slug,
      company_name: 'Acme Robotics',
      headline: 'We build friendly robots',
      visibility: 'open_invite',
      interview_slots: slots,
      accent_color: '#0b6e4f',
    });
    await jobs.create(teamId, {
      live_event_id: event.id,
      title: 'Backend Engineer',
      essential_skills: ['TypeScript', 'PostgreSQL'],
      bonus_skills: ['Temporal'],
      experience_min: 3,
      salary_min: 70000,
      salary_max: 95000,
      location: 'Berlin',
      remote_preference: 'hybrid',
    });
    await events.transition(teamId, user.id, event.id, 'goLive');
    return { slug, teamId };
  };

  const joinAndGetMatched = async (page: Page, slug: string): Promise<string> => {
    await page.goto(`${baseUrl}/events/${slug}`);
    await page.getByRole('button', { name: 'Join the queue for Acme Robotics' }).click();
    await page.locator('#queue-status').waitFor();
    // The page polls its status endpoint and announces the match with a link.
    await page.locator('#matched-box').waitFor({ state: 'visible', timeout: 30_000 });
    await Promise.all([page.waitForURL(/\/matches\/[0-9a-f-]{36}$/), page.locator('#matched-link').click()]);
    return new URL(page.url()).pathname.split('/').pop()!;
  };

  it(
    'seeker and recruiter accept and meet in the room; the connection reaches connected; ' +
      'leaving completes the interview',
    async () => {
      const recruiter = await newPage();
      const { email: recEmail } = await signUpInBrowser(recruiter, baseUrl, {
        role: 'recruiter',
        name: 'Rita Recruiter',
      });
      await onboardRecruiterInBrowser(recruiter, { team: 'Acme Hiring' });
      const { slug } = await liveEventFor(recEmail, 2);

      const seeker = await newPage();
      await signUpInBrowser(seeker, baseUrl, { role: 'seeker', name: 'Sam Seeker', next: `/events/${slug}` });
      await onboardSeekerInBrowser(seeker);
      expect(new URL(seeker.url()).pathname).toBe(`/events/${slug}`);
      await screenshot(seeker, '05-event-page');
      await seeker.getByRole('button', { name: 'Join the queue for Acme Robotics' }).click();
      await seeker.locator('#queue-status').waitFor();
      // A number while waiting; the page shows the current state, so a match made at once shows instead.
      const position = (await seeker.locator('[data-field="position"]').textContent()) ?? '';
      expect(/^\d+$/.test(position) || (await seeker.locator('#matched-box:not([hidden])').count()) === 1).toBe(true);
      await screenshot(seeker, '06-queue-waiting');
      await seeker.locator('#matched-box').waitFor({ state: 'visible', timeout: 30_000 });
      await Promise.all([seeker.waitForURL(/\/matches\/[0-9a-f-]{36}$/), seeker.locator('#matched-link').click()]);
      const matchId = new URL(seeker.url()).pathname.split('/').pop()!;

      // The match page: job, score breakdown, deadline countdown, accept/decline.
      expect(await seeker.locator('[data-match-status]').getAttribute('data-match-status')).toBe('matched');
      expect(await seeker.locator('#score-h').textContent()).toMatch(/Match score: \d/);
      expect(await seeker.locator('table:has-text("Essential skills")').count()).toBe(1);
      await expect(
        eventually(
          async () => /^\d+:\d\d/.test((await seeker.locator('.countdown').first().textContent()) ?? ''),
          5000,
        ),
      ).resolves.toBe(true);
      await screenshot(seeker, '07-match-seeker');
      await seeker.getByRole('button', { name: 'Accept match' }).click();
      await seeker.locator('.notice:has-text("You accepted")').waitFor();

      // The recruiter finds it among the team's matches and sees the candidate's profile.
      await recruiter.goto(`${baseUrl}/matches`);
      await Promise.all([
        recruiter.waitForURL(new RegExp(`/matches/${matchId}$`)),
        recruiter.getByRole('link', { name: 'Backend Engineer' }).first().click(),
      ]);
      expect(await recruiter.locator('#other-h').textContent()).toBe('The candidate');
      expect(await recruiter.locator('section:has(#other-h)').textContent()).toContain('Sam Seeker');
      await screenshot(recruiter, '08-match-recruiter');
      await recruiter.getByRole('button', { name: 'Accept match' }).click();
      await recruiter.getByRole('button', { name: 'Enter the interview room' }).waitFor();
      expect(await recruiter.locator('[data-match-status]').getAttribute('data-match-status')).toBe('accepted');

      // The seeker's page notices the change by itself.
      await seeker.getByRole('button', { name: 'Enter the interview room' }).waitFor({ timeout: 15_000 });
      await Promise.all([
        seeker.waitForURL(/\/rooms\//),
        seeker.getByRole('button', { name: 'Enter the interview room' }).click(),
      ]);
      const seekerRoomUrl = seeker.url();
      expect(seekerRoomUrl).toMatch(new RegExp(`^${baseUrl}/rooms/${matchId}\\?t=`));
      await Promise.all([
        recruiter.waitForURL(/\/rooms\//),
        recruiter.getByRole('button', { name: 'Enter the interview room' }).click(),
      ]);
      // The pre-join check (camera, microphone), then join.
      for (const p of [seeker, recruiter]) {
        await p.locator('#precheck[data-precheck-state="ready"]').waitFor({ timeout: 15_000 });
        await p.getByRole('button', { name: 'Join the interview' }).click();
      }

      // Both peer connections reach `connected`.
      for (const p of [seeker, recruiter]) {
        await p.locator('#room[data-connection-state="connected"]').waitFor({ timeout: 30_000 });
        expect(await p.evaluate('window.jobfairRoom.pc.connectionState')).toBe('connected');
      }
      // Remote video is flowing (the fake camera's frames arrive).
      await eventually(
        async () => ((await seeker.evaluate('document.getElementById("remote-video").videoWidth')) as number) > 0,
        10_000,
      );
      // The interview clock runs from the moment both were in the room, on both pages.
      for (const p of [seeker, recruiter])
        await p.locator('#room-clock[data-clock-state="running"]').waitFor({ timeout: 15_000 });
      expect(await seeker.locator('#room-timer').textContent()).toMatch(/^\d+:\d\d/);
      // The end time names its zone, as every other page's times do (the browser runs in UTC here).
      expect(await seeker.locator('#room-clock-hint').textContent()).toMatch(
        /It ends at \d{1,2}:\d\d\s?(?:[AP]M\s)?UTC\.$/,
      );
      expect(await seeker.locator('#room-elapsed').textContent()).toMatch(/^\d+:\d\d/);
      await seeker.getByRole('button', { name: 'Mute microphone' }).click();
      expect(await seeker.locator('#toggle-mic').getAttribute('aria-pressed')).toBe('true');
      await screenshot(recruiter, '09-interview-room');
      // No STUN/TURN configured, one machine: host candidates, and the room says the call is direct.
      await recruiter.locator('#room[data-path="direct"]').waitFor({ timeout: 10_000 });
      expect(await recruiter.locator('#room-path [data-path="direct"]').isVisible()).toBe(true);
      await checkPage(recruiter, 'room-direct');

      // The room link is for its party only.
      const intruder = await newPage();
      await signUpInBrowser(intruder, baseUrl, { role: 'seeker' });
      const refused = await intruder.goto(seekerRoomUrl);
      expect(refused!.status()).toBe(403);
      await recruiter.bringToFront();

      // Leaving ends the interview for both: interview.completed, both pages show it.
      await seeker.locator('summary', { hasText: 'End the interview' }).click();
      await Promise.all([
        seeker.waitForURL(new RegExp(`/matches/${matchId}`)),
        seeker.getByRole('button', { name: 'Yes, end the interview for both' }).click(),
      ]);
      const done = await eventually(async () => h.knex('matches').where({ id: matchId, status: 'completed' }).first());
      expect(done.completed_by).toBeTruthy();
      await eventually(async () =>
        h
          .knex('domain_events')
          .where({ type: 'interview.completed' })
          .whereRaw("data->>'match_id' = ?", [matchId])
          .first(),
      );
      await recruiter.waitForURL(new RegExp(`/matches/${matchId}$`), { timeout: 15_000 });
      await recruiter.locator('[data-match-status="completed"]').waitFor({ timeout: 15_000 });
      await seeker.locator('[data-match-status="completed"]').waitFor({ timeout: 15_000 });
      // The whole journey (two sign-ups, matching, the pre-join check, WebRTC) on a shared, loaded machine: as long as human-loop's journeys.
    },
    180_000,
  );

  it(
    'decline path: the reason is required, the decision shows on both sides, and accepting is ' + 'no longer offered',
    async () => {
      const recruiter = await newPage();
      const { email: recEmail } = await signUpInBrowser(recruiter, baseUrl, { role: 'recruiter' });
      await onboardRecruiterInBrowser(recruiter, { team: 'Decliners Inc' });
      const { slug } = await liveEventFor(recEmail, 1);
      const seeker = await newPage();
      await signUpInBrowser(seeker, baseUrl, { role: 'seeker' });
      await onboardSeekerInBrowser(seeker);
      const matchId = await joinAndGetMatched(seeker, slug);

      // The seeker's "Decline" keeps them in the queue ("Decline and leave the queue" is the other button).
      await seeker.getByRole('button', { name: 'Decline', exact: true }).click();
      await seeker.locator('#e-reason').waitFor();
      expect(await seeker.locator('[data-match-status]').getAttribute('data-match-status')).toBe('matched');
      await seeker.getByLabel('Reason for declining').fill('The commute is too long for me');
      await seeker.getByRole('button', { name: 'Decline', exact: true }).click();
      await seeker.locator('[data-match-status="declined"]').waitFor();
      expect(await seeker.getByRole('button', { name: 'Accept match' }).count()).toBe(0);
      await screenshot(seeker, '10-match-declined');

      await recruiter.goto(`${baseUrl}/matches/${matchId}`);
      expect(await recruiter.locator('[data-match-status]').getAttribute('data-match-status')).toBe('declined');
      expect(await recruiter.locator('.panel-soft').textContent()).toContain('The commute is too long for me');
      expect(await recruiter.getByRole('button', { name: 'Accept match' }).count()).toBe(0);
      const row = await h.knex('matches').where({ id: matchId }).first();
      expect(row).toMatchObject({
        status: 'declined',
        declined_by_role: 'seeker',
        decline_reason: 'The commute is too long for me',
      });

      // Another tenant's match is not found (no existence leak).
      const other = await newPage();
      await signUpInBrowser(other, baseUrl, { role: 'recruiter' });
      await onboardRecruiterInBrowser(other, { team: 'Other Co' });
      const res = await other.goto(`${baseUrl}/matches/${matchId}`);
      expect(res!.status()).toBe(404);
    },
  );
});
