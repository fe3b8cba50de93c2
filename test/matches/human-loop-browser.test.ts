import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually, type Harness } from '../helpers/harness';
import {
  checkPage,
  createWebHarness,
  launchBrowser,
  onboardRecruiterInBrowser,
  onboardSeekerInBrowser,
  signUpInBrowser,
} from '../helpers/browser';
import { startSmtp } from '../webhooks/helpers';

/**
 * The human loop in real browsers, as people would run a fair: the recruiter's open console learns
 * of a new match by itself, both sides get an e-mail (a real SMTP server), both enter the room —
 * one from `localhost`, one from `127.0.0.1` — the interview ends, and the seeker joins again from
 * the web. Every visited page passes axe (no serious or critical violation) and is photographed.
 */
describe('browser: the human loop — live console, e-mail, room from any origin, join again', () => {
  let h: Harness;
  let baseUrl: string;
  let otherOrigin: string;
  let browser: Browser;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    smtp = await startSmtp();
    ({ h, baseUrl } = await createWebHarness({
      SMTP_URL: smtp.url,
      MATCHMAKER_INTERVAL_MS: '100',
      QUEUE_ENTRY_TTL_MS: '600000',
      MATCH_ACCEPT_WINDOW_MS: '600000',
      INTERVIEW_LENGTH_MS: '600000',
    }));
    // The same server under its other loopback name (PUBLIC_BASE_URL says 127.0.0.1).
    otherOrigin = baseUrl.replace('127.0.0.1', 'localhost');
    browser = await launchBrowser({ media: true });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await h?.close();
    await smtp?.close();
  });

  const newPage = async (): Promise<Page> => {
    const c = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(c);
    return c.newPage();
  };

  const liveEventFor = async (recruiterEmail: string) => {
    const user = await h.knex('users').whereRaw('lower(email) = lower(?)', [recruiterEmail]).first();
    const { team_id: teamId } = await h.knex('team_members').where({ user_id: user.id }).first();
    const { liveEvents: events, jobs } = h.app.services.events;
    const slug = `loop-${Date.now().toString(36)}`;
    const event = await events.create(teamId, user.id, {
      slug,
      company_name: 'Acme Robotics',
      headline: 'We build friendly robots',
      visibility: 'open_invite',
      interview_slots: 2,
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
    return { slug };
  };

  it(
    'console updates live, e-mail arrives, both enter the room from different host names, the ' + 'seeker joins again',
    async () => {
      const recruiter = await newPage();
      const { email: recEmail } = await signUpInBrowser(recruiter, baseUrl, {
        role: 'recruiter',
        name: 'Rita Recruiter',
      });
      await onboardRecruiterInBrowser(recruiter, { team: 'Acme Hiring' });
      const { slug } = await liveEventFor(recEmail);
      await recruiter.goto(`${baseUrl}/recruiter`);
      await recruiter.locator('body[data-live="connected"]').waitFor();
      await recruiter.evaluate('window.__notReloaded = true');
      await checkPage(recruiter, 'loop-01-console-empty');

      // The seeker arrives on the other host name: every page moves to the canonical origin first.
      const seeker = await newPage();
      const { email: seekerEmail } = await signUpInBrowser(seeker, otherOrigin, {
        role: 'seeker',
        name: 'Sam Seeker',
        next: `/events/${slug}`,
      });
      expect(seeker.url().startsWith(baseUrl)).toBe(true);
      await onboardSeekerInBrowser(seeker);
      await checkPage(seeker, 'loop-02-event-page');
      await seeker.getByRole('button', { name: 'Join the queue for Acme Robotics' }).click();
      await seeker.locator('#queue-status').waitFor();

      // The match is made: the open console shows it within 2 s, without a reload, naming the candidate.
      const match = await eventually(async () => h.knex('matches').where({ status: 'matched' }).first(), 30_000, 20);
      const seenAt = Date.now();
      const item = recruiter.locator(`[data-match-id="${match.id}"]`);
      await item.waitFor({ timeout: 2_000 });
      expect(Date.now() - seenAt).toBeLessThan(2_000);
      expect(await recruiter.evaluate('window.__notReloaded')).toBe(true);
      expect(await item.textContent()).toContain('Sam Seeker');
      expect(await recruiter.locator('[data-pending-count]').textContent()).toBe('1');
      await eventually(async () => (await recruiter.title()).startsWith('(1) '), 2_000);
      await eventually(async () => /^\d+:\d\d/.test((await item.locator('.countdown').textContent()) ?? ''), 3_000);
      await checkPage(recruiter, 'loop-03-console-new-match');

      // Both sides are told by e-mail, through the outbox, over real SMTP.
      // Bodies may arrive quoted-printable (soft line breaks, =XX escapes): decoded before matching.
      const decoded = (raw: string) =>
        raw
          .replace(/=\r\n/g, '')
          .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
      const mailTo = (to: string, pattern: RegExp) =>
        smtp.mails.find((m) => m.to.includes(to) && pattern.test(decoded(m.raw)));
      await eventually(async () => mailTo(seekerEmail, /Subject: You have a match/), 15_000);
      await eventually(async () => mailTo(recEmail, /Subject: New match for Backend Engineer/), 15_000);
      expect(decoded(mailTo(seekerEmail, /Subject: You have a match/)!.raw)).toContain(
        `${baseUrl}/matches/${match.id}`,
      );

      // The seeker's event page shows the match (live), then the seeker accepts.
      await seeker.locator('#matched-box:not([hidden])').waitFor({ timeout: 10_000 });
      await checkPage(seeker, 'loop-04-event-page-matched');
      await seeker.goto(`${baseUrl}/matches/${match.id}`);
      await seeker.getByRole('button', { name: 'Accept match' }).click();
      await seeker.locator('.notice:has-text("You accepted")').waitFor();
      await checkPage(seeker, 'loop-05-match-seeker-accepted');

      // The recruiter opens the match from the console on the other host name and accepts.
      await recruiter.goto(`${otherOrigin}/matches/${match.id}`);
      expect(recruiter.url()).toBe(`${baseUrl}/matches/${match.id}`);
      await recruiter.getByRole('button', { name: 'Accept match' }).click();
      await recruiter.getByRole('button', { name: 'Enter the interview room' }).waitFor();
      await checkPage(recruiter, 'loop-06-match-recruiter-accepted');
      await eventually(async () => mailTo(seekerEmail, /Subject: Interview room open/), 15_000);

      // The seeker's queue box now shows the outcome (the entry's work is done), not "you have a match".
      await seeker.goto(`${baseUrl}/events/${slug}`);
      expect(await seeker.locator('[data-queue-outcome]').getAttribute('data-queue-outcome')).toBe('accepted');
      expect(await seeker.getByText('You have a match').count()).toBe(0);
      await checkPage(seeker, 'loop-07-event-page-interview-on');

      // Both enter the room: the redirect stays on the page's origin (the CSP's form-action allows it).
      await seeker.goto(`${baseUrl}/matches/${match.id}`);
      await seeker.getByRole('button', { name: 'Enter the interview room' }).waitFor({ timeout: 10_000 });
      await Promise.all([
        seeker.waitForURL(new RegExp(`^${baseUrl}/rooms/${match.id}\\?t=`)),
        seeker.getByRole('button', { name: 'Enter the interview room' }).click(),
      ]);
      await Promise.all([
        recruiter.waitForURL(new RegExp(`^${baseUrl}/rooms/${match.id}\\?t=`)),
        recruiter.getByRole('button', { name: 'Enter the interview room' }).click(),
      ]);
      for (const p of [seeker, recruiter]) {
        await p.locator('#precheck[data-precheck-state="ready"]').waitFor({ timeout: 15_000 });
        await p.getByRole('button', { name: 'Join the interview' }).click();
      }
      for (const p of [seeker, recruiter])
        await p.locator('#room[data-connection-state="connected"]').waitFor({ timeout: 30_000 });
      // Names on the tiles; a muted microphone shows on both sides.
      expect(await seeker.locator('figure:has(#remote-video) figcaption').textContent()).toContain(
        'Rita Recruiter (recruiter)',
      );
      expect(await recruiter.locator('figure:has(#remote-video) figcaption').textContent()).toContain(
        'Sam Seeker (candidate)',
      );
      await seeker.getByRole('button', { name: 'Mute microphone' }).click();
      await seeker.locator('#local-mic-off:not([hidden])').waitFor();
      await recruiter.locator('#remote-mic-off:not([hidden])').waitFor({ timeout: 5_000 });
      await checkPage(seeker, 'loop-08-room-seeker');

      // Leaving ends the interview; the page the seeker lands on already says so.
      await seeker.locator('summary', { hasText: 'End the interview' }).click();
      await Promise.all([
        seeker.waitForURL(new RegExp(`/matches/${match.id}`)),
        seeker.getByRole('button', { name: 'Yes, end the interview for both' }).click(),
      ]);
      expect(await seeker.locator('[data-match-status]').getAttribute('data-match-status')).toBe('completed');
      await checkPage(seeker, 'loop-09-match-completed-seeker');

      // The recruiter's report card: a missing choice is named in words; "advance" exchanges contacts.
      await recruiter.waitForURL(new RegExp(`/matches/${match.id}$`), { timeout: 15_000 });
      await recruiter.locator('#report-card').waitFor({ timeout: 15_000 });
      await checkPage(recruiter, 'loop-10-report-card-empty');
      await recruiter.getByRole('button', { name: 'Save report card' }).click();
      expect(await recruiter.locator('.error-summary').textContent()).toContain('Choose a score from 1 to 5 for fit');
      await checkPage(recruiter, 'loop-11-report-card-errors');
      await recruiter.locator('input[name="fit"][value="3"]').check();
      await recruiter.locator('input[name="communication"][value="4"]').check();
      await recruiter.locator('input[name="technical"][value="4"]').check();
      await recruiter.getByLabel(/Advance: exchange contact details/).check();
      await recruiter.getByLabel('Notes (for your team only)').fill('Strong on Temporal; weak on SQL tuning.');
      await Promise.all([
        recruiter.waitForURL(/done=report-saved/),
        recruiter.getByRole('button', { name: 'Save report card' }).click(),
      ]);
      expect(await recruiter.locator('#contact-details').textContent()).toContain(seekerEmail);
      await checkPage(recruiter, 'loop-12-report-card-saved');
      const report = await h.knex('interview_reports').where({ match_id: match.id }).first();
      expect(report).toMatchObject({
        fit: 3,
        communication: 4,
        technical: 4,
        outcome: 'advance',
        notes: 'Strong on Temporal; weak on SQL tuning.',
      });
      await eventually(
        async () => mailTo(seekerEmail, new RegExp(`Contact: Rita Recruiter <${recEmail.replace(/[.+]/g, '\\$&')}>`)),
        15_000,
      );
      await eventually(
        async () => mailTo(recEmail, new RegExp(`Contact: Sam Seeker <${seekerEmail.replace(/[.+]/g, '\\$&')}>`)),
        15_000,
      );
      await seeker.reload();
      expect(await seeker.locator('#contact-details').textContent()).toContain(recEmail);
      expect(await seeker.locator('#next-step').textContent()).toContain('wants to continue');
      expect(await seeker.locator('body').textContent()).not.toContain('weak on SQL');
      await checkPage(seeker, 'loop-13-match-seeker-contacts');
      await recruiter.goto(`${baseUrl}/recruiter/candidates/${match.seeker_user_id}`);
      expect(await recruiter.locator('body').textContent()).toContain('Strong on Temporal');
      await checkPage(recruiter, 'loop-14-candidate-report-cards');

      // Join again, from the web: a new entry waits.
      await seeker.goto(`${baseUrl}/events/${slug}`);
      expect(await seeker.locator('[data-queue-outcome]').getAttribute('data-queue-outcome')).toBe('completed');
      await checkPage(seeker, 'loop-15-event-page-join-again');
      await seeker.getByRole('button', { name: 'Join again for Acme Robotics' }).click();
      await seeker.locator('#queue-status').waitFor();
      const entries = await h.knex('queue_entries').where({ user_id: match.seeker_user_id }).orderBy('entered_at');
      expect(entries).toHaveLength(2);
      // Waiting — or already matched again: keeping an interviewed pair apart is the matchmaker's rule (never offered again).
      expect(['waiting', 'matched']).toContain(entries[1].status);
      expect(entries[0].ended_at).not.toBeNull();

      // The team's match list names the candidate.
      await recruiter.goto(`${baseUrl}/matches`);
      expect(await recruiter.locator('#matches-list').textContent()).toContain('Sam Seeker');
      await checkPage(recruiter, 'loop-16-matches-recruiter');
    },
    180_000,
  );

  it('post/redirect/get: reloading after creating a token shows it no more and creates nothing', async () => {
    const page = await newPage();
    await signUpInBrowser(page, baseUrl, { role: 'seeker' });
    await onboardSeekerInBrowser(page);
    await page.goto(`${baseUrl}/account/api-tokens`);
    await page.locator('#f-name').fill('my agent');
    await page.locator('#scope-queue-read').check();
    await Promise.all([
      page.waitForURL(`${baseUrl}/account/api-tokens`),
      page.getByRole('button', { name: 'Create token' }).click(),
    ]);
    expect(await page.locator('#new-token').inputValue()).toMatch(/^svc_/);
    await checkPage(page, 'loop-17-token-created');
    const userId = (await h.knex('users').orderBy('created_at', 'desc').first()).id;
    const count = async () => Number((await h.knex('api_tokens').where({ user_id: userId }).count({ n: '*' }))[0].n);
    expect(await count()).toBe(1);
    await page.reload();
    await page.reload();
    expect(await page.locator('#new-token').count()).toBe(0);
    expect(await count()).toBe(1);
  });

  /**
   * Keyboard only: Tab until the wanted control has focus (never a mouse click), then Enter/Space or
   * arrow keys, as someone without a pointer works. Fails when the control is never reached.
   */
  const tabTo = async (page: Page, name: string | RegExp, maxTabs = 80) => {
    for (let i = 0; i < maxTabs; i++) {
      await page.keyboard.press('Tab');
      const focused = (await page.evaluate(
        `(() => { const a = document.activeElement; return a ? (a.getAttribute('aria-label') || ` +
          `a.textContent || a.value || '').trim() : ''; })()`,
      )) as string;
      if (typeof name === 'string' ? focused === name : name.test(focused)) return;
    }
    throw new Error(`${String(name)} not reachable by Tab on ${page.url()}`);
  };

  /**
   * Tab to a control and press Enter until its effect shows. A live refresh of the page's state
   * region replaces the focused button (the other side's answer arrives), and the Enter then lands
   * on nothing; a person presses again, and so does this (accepting and entering are idempotent).
   */
  const pressUntil = async (page: Page, name: string, effect: (timeout: number) => Promise<unknown>) => {
    const deadline = Date.now() + 60_000;
    for (;;) {
      try {
        await tabTo(page, name);
      } catch {
        // The control is gone: the earlier press took effect after all (the page moved on).
        await effect(Math.max(1, deadline - Date.now()));
        return;
      }
      await page.keyboard.press('Enter');
      try {
        await effect(10_000);
        return;
      } catch (err) {
        if (Date.now() > deadline) throw err;
      }
    }
  };

  it('keyboard only: join → accept → room → end → report card', async () => {
    const recruiter = await newPage();
    const { email: recEmail } = await signUpInBrowser(recruiter, baseUrl, { role: 'recruiter', name: 'Kim Keys' });
    await onboardRecruiterInBrowser(recruiter, { team: 'Keyboard Co' });
    const { slug } = await liveEventFor(recEmail);
    const seeker = await newPage();
    await signUpInBrowser(seeker, baseUrl, { role: 'seeker', name: 'Kai Keys', next: `/events/${slug}` });
    await onboardSeekerInBrowser(seeker);

    await tabTo(seeker, 'Join the queue for Acme Robotics');
    await seeker.keyboard.press('Enter');
    await seeker.locator('#matched-box:not([hidden])').waitFor({ timeout: 30_000 });
    await tabTo(seeker, 'Open the match');
    await Promise.all([seeker.waitForURL(/\/matches\/[0-9a-f-]{36}$/), seeker.keyboard.press('Enter')]);
    const matchId = new URL(seeker.url()).pathname.split('/').pop()!;
    await pressUntil(seeker, 'Accept match', (timeout) =>
      seeker.locator('.notice:has-text("You accepted")').waitFor({ timeout }),
    );

    await recruiter.goto(`${baseUrl}/matches/${matchId}`);
    await pressUntil(recruiter, 'Accept match', (timeout) =>
      recruiter.getByRole('button', { name: 'Enter the interview room' }).waitFor({ timeout }),
    );
    await pressUntil(recruiter, 'Enter the interview room', (timeout) =>
      recruiter.waitForURL(/\/rooms\//, { timeout }),
    );
    await seeker.getByRole('button', { name: 'Enter the interview room' }).waitFor({ timeout: 10_000 });
    await pressUntil(seeker, 'Enter the interview room', (timeout) => seeker.waitForURL(/\/rooms\//, { timeout }));
    // The pre-join check: the devices are chosen with the keyboard too, then Join.
    for (const p of [recruiter, seeker]) {
      await p.locator('#precheck[data-precheck-state="ready"]').waitFor({ timeout: 15_000 });
      await tabTo(p, 'Join the interview');
      await p.keyboard.press('Enter');
    }
    await seeker.locator('#room[data-connection-state="connected"]').waitFor({ timeout: 30_000 });

    // Ending is offered once both are in (the clock runs), and confirmed: Enter opens the confirmation, then the real button.
    await seeker.locator('#room-clock[data-clock-state="running"]').waitFor({ timeout: 15_000 });
    await tabTo(seeker, 'End the interview');
    await seeker.keyboard.press('Enter');
    await tabTo(seeker, 'Yes, end the interview for both', 3);
    await Promise.all([seeker.waitForURL(new RegExp(`/matches/${matchId}`)), seeker.keyboard.press('Enter')]);

    // The report card: Tab into each radio group, arrows choose, Space picks the next step.
    await recruiter.waitForURL(new RegExp(`/matches/${matchId}$`), { timeout: 15_000 });
    await recruiter.locator('#report-card').waitFor({ timeout: 15_000 });
    for (const group of ['fit', 'communication', 'technical']) {
      await tabTo(recruiter, '1');
      expect(await recruiter.evaluate('document.activeElement.name')).toBe(group);
      await recruiter.keyboard.press('ArrowRight');
      await recruiter.keyboard.press('ArrowRight');
    }
    await tabTo(recruiter, 'advance');
    await recruiter.keyboard.press('Space');
    await tabTo(recruiter, 'Save report card');
    await Promise.all([recruiter.waitForURL(/done=report-saved/), recruiter.keyboard.press('Enter')]);
    const report = await h.knex('interview_reports').where({ match_id: matchId }).first();
    expect(report).toMatchObject({ fit: 3, communication: 3, technical: 3, outcome: 'advance' });
    await checkPage(recruiter, 'loop-18-report-card-by-keyboard');
  }, 180_000);
});
