import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually, type Harness } from '../helpers/harness';
import {
  checkPage,
  createWebHarness,
  launchBrowser,
  onboardSeekerInBrowser,
  signUpInBrowser,
} from '../helpers/browser';
import { roundCompleted } from './fixtures';

/**
 * No traps, in a real browser with the matchmaker running (100 ms rounds): a matched seeker
 * declines and leaves from the match page, and later leaves from the event page's queue box while
 * matched. The event has two fitting jobs, so a seeker who stayed would be matched again at once;
 * after each exit a whole matching round passes and no new match appears.
 */
describe('browser: decline and leave, and leave while matched', () => {
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
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await h?.close();
  });

  const newPage = async (): Promise<Page> => {
    const c = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(c);
    return c.newPage();
  };

  /** A live event with three jobs that fit the seeker onboarded in the browser (TypeScript, PostgreSQL). */
  const liveEvent = async () => {
    const rec = await h.recruiter();
    const { liveEvents: events, jobs } = h.app.services.events;
    const slug = `exits-${Date.now().toString(36)}`;
    const event = await events.create(rec.teamId!, rec.user.id, {
      slug,
      company_name: 'Acme Exits',
      headline: 'Leaving is always possible',
      visibility: 'open_invite',
      interview_slots: 3,
    });
    for (const title of ['Backend Engineer', 'Platform Engineer', 'Data Engineer'])
      await jobs.create(rec.teamId!, {
        live_event_id: event.id,
        title,
        essential_skills: ['TypeScript', 'PostgreSQL'],
        bonus_skills: ['Temporal'],
        experience_min: 3,
        salary_min: 70000,
        salary_max: 95000,
        location: 'Berlin',
        remote_preference: 'hybrid',
      });
    await events.transition(rec.teamId!, rec.user.id, event.id, 'goLive');
    return { slug };
  };

  const matchesOf = (userId: string) => h.knex('matches').where({ seeker_user_id: userId }).orderBy('created_at');

  it('declines and leaves from the match page; leaves from the queue box while matched; never rematched', async () => {
    const { slug } = await liveEvent();
    const page = await newPage();
    const { email } = await signUpInBrowser(page, baseUrl, {
      role: 'seeker',
      name: 'Lee Leaver',
      next: `/events/${slug}`,
    });
    await onboardSeekerInBrowser(page);
    const user = await h.knex('users').whereRaw('lower(email) = lower(?)', [email]).first();

    // 1. Matched; the match page offers "Decline" and "Decline and leave the queue".
    await page.goto(`${baseUrl}/events/${slug}`);
    await page.getByRole('button', { name: 'Join the queue for Acme Exits' }).click();
    const first = await eventually(async () => (await matchesOf(user.id))[0], 30_000);
    await page.goto(`${baseUrl}/matches/${first.id}`);
    await page.getByRole('button', { name: 'Decline and leave the queue' }).waitFor();
    expect(await page.getByRole('button', { name: 'Decline', exact: true }).count()).toBe(1);
    await checkPage(page, 'exits-01-match-decline-choices');

    await page.getByLabel('Reason for declining').fill('I found a job elsewhere');
    await Promise.all([
      page.waitForURL(/done=declined-left-queue/),
      page.getByRole('button', { name: 'Decline and leave the queue' }).click(),
    ]);
    expect(await page.locator('[data-match-status]').textContent()).toBe('declined');
    expect(await page.locator('.notice').first().textContent()).toContain('left the queue');
    await checkPage(page, 'exits-02-match-declined-and-left');
    const entry1 = await h.knex('queue_entries').where({ user_id: user.id }).orderBy('entered_at', 'desc').first();
    expect(entry1.status).toBe('left');
    expect((await h.knex('matches').where({ id: first.id }).first()).decline_reason_code).toBe('left_queue');
    await roundCompleted(h);
    expect(await matchesOf(user.id)).toHaveLength(1);

    // 2. Joins again and is matched (another job); the queue box offers leaving, saying it declines the match.
    await page.goto(`${baseUrl}/events/${slug}`);
    await page.getByRole('button', { name: 'Join the queue for Acme Exits' }).click();
    const second = await eventually(async () => (await matchesOf(user.id))[1], 30_000);
    await page.goto(`${baseUrl}/events/${slug}`);
    await page.locator('#matched-box:not([hidden])').waitFor();
    // Matched: no position in line and no estimated wait, which no longer apply.
    expect(await page.getByText('Estimated wait').isVisible()).toBe(false);
    expect(await page.getByText('Your position').isVisible()).toBe(false);
    await page.locator('#queue-leave summary', { hasText: 'Leave the queue' }).click();
    await page.getByText('Leaving the queue declines it').waitFor();
    await checkPage(page, 'exits-03-queue-box-leave-while-matched');
    // A live refresh of the queue box (here: its entry's row changes) leaves the opened confirmation open.
    await page.evaluate("document.body.removeAttribute('data-live-refreshed')");
    await h.knex.raw("UPDATE queue_entries SET status = status WHERE user_id = ? AND status = 'matched'", [user.id]);
    await page.locator('body[data-live-refreshed]').waitFor({ timeout: 10_000 });
    await Promise.all([
      page.waitForURL(/done=left-queue-declined/),
      page.getByRole('button', { name: 'Decline the match and leave' }).click(),
    ]);
    expect(await page.locator('#queue-box .notice').textContent()).toContain('declined your pending match');
    await page.getByRole('button', { name: 'Join the queue for Acme Exits' }).waitFor();
    await checkPage(page, 'exits-04-event-page-after-leaving');
    const m2 = await h.knex('matches').where({ id: second.id }).first();
    expect(m2).toMatchObject({ status: 'declined', declined_by_role: 'seeker', decline_reason_code: 'left_queue' });
    const entry2 = await h.knex('queue_entries').where({ user_id: user.id }).orderBy('entered_at', 'desc').first();
    expect(entry2).toMatchObject({ status: 'left', match_id: second.id });
    await roundCompleted(h);
    expect(await matchesOf(user.id)).toHaveLength(2);
  });
});
