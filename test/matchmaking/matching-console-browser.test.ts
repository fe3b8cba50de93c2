import fs from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import type { Harness } from '../helpers/harness';
import {
  createWebHarness,
  launchBrowser,
  onboardRecruiterInBrowser,
  screenshot,
  signUpInBrowser,
} from '../helpers/browser';
import { createLiveEvent } from '../matches/fixtures';

/** axe-core, evaluated through the DevTools protocol (the pages' CSP allows no injected script tag). */
async function axeViolations(page: Page): Promise<Array<{ id: string; impact: string | null }>> {
  await page.evaluate(fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8'));
  const result = await page.evaluate(async () =>
    (
      globalThis as unknown as {
        axe: { run: () => Promise<{ violations: Array<{ id: string; impact: string | null }> }> };
      }
    ).axe.run(),
  );
  return result.violations.map((v) => ({ id: v.id, impact: v.impact }));
}

/** The console's matching page (recruiters' availability) in a real browser, at desktop and phone widths. */
describe('browser: console matching page', () => {
  let h: Harness;
  let baseUrl: string;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    ({ h, baseUrl } = await createWebHarness({ MATCHMAKER_INTERVAL_MS: '100' }));
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await h?.close();
  });

  it(
    'a recruiter sets their availability and the floor; bad input is refused next to the ' +
      'field; no serious accessibility violation',
    async () => {
      const c = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      contexts.push(c);
      const page = await c.newPage();
      const { email } = await signUpInBrowser(page, baseUrl, { role: 'recruiter', name: 'Mia Matcher' });
      await onboardRecruiterInBrowser(page, { team: 'Initech' });
      const user = await h.knex('users').where({ email }).first();
      const { team_id: teamId } = await h.knex('team_members').where({ user_id: user.id }).first();
      const event = await createLiveEvent(h, { teamId, slots: 3 });

      // The event page links the recruiter's own availability (its own box is the event-wide interview slots).
      await page.goto(`${baseUrl}/recruiter/events/${event.id}`);
      expect(await page.getByRole('heading', { name: 'Your availability' }).count()).toBe(0);
      expect(await page.getByRole('heading', { name: 'Interview slots' }).count()).toBe(1);
      await screenshot(page, 'console-event-slots-1280');
      expect((await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, 'console-event-slots-390');
      await page.setViewportSize({ width: 1280, height: 900 });
      await page.getByRole('link', { name: 'Your availability and the quality floor' }).click();
      await page.waitForURL(`**/recruiter/events/${event.id}/matching`);
      expect(await page.getByText('You have not said whether you take interviews').count()).toBe(1);
      await page.getByLabel('Interviews at a time').fill('0');
      await page.getByRole('button', { name: 'Save availability' }).click();
      await page.locator('#e-capacity').waitFor();
      await page.getByLabel('Interviews at a time').fill('2');
      await page.getByRole('button', { name: 'Save availability' }).click();
      await page.locator('.notice:has-text("availability was saved")').waitFor();
      expect(await page.getByText('You take up to 2 interviews at a time here').count()).toBe(1);
      expect(
        await h.knex('recruiter_availability').where({ live_event_id: event.id, user_id: user.id }).first(),
      ).toMatchObject({ available: true, capacity: 2 });

      await page.getByLabel('Minimum score (0–100)').fill('65');
      await page.getByRole('button', { name: 'Save floor' }).click();
      await page.locator('.notice:has-text("quality floor was saved")').waitFor();
      expect(await h.knex('live_events').where({ id: event.id }).first()).toMatchObject({ match_min_score: 65 });
      // What the floor allows after each bracket (default brackets: 0, 5 and 15 min; 0 / 15 / 30 points off).
      const rows = async () =>
        page
          .locator('[data-floor-table] tbody tr')
          .evaluateAll((trs) => trs.map((tr) => [...tr.children].map((c) => (c.textContent ?? '').trim())));
      expect(await rows()).toEqual([
        ['From the start', '65', 'Required', 'Never offered'],
        ['5 min', '50', 'Required', 'Never offered'],
        ['15 min', '35', 'Required', 'Never offered'],
      ]);
      // The event allows what the relaxed brackets would lift: the table says so.
      await page.getByLabel('Once relaxed, offer jobs that share none of their essential skills').selectOption('true');
      await page.getByLabel('Offer on-site jobs to seekers who want fully remote work').selectOption('true');
      await page.getByRole('button', { name: 'Save floor' }).click();
      await page.locator('.notice:has-text("quality floor was saved")').waitFor();
      expect(await h.knex('live_events').where({ id: event.id }).first()).toMatchObject({
        match_min_score: 65,
        match_relax_essential: true,
        match_allow_remote_mismatch: true,
      });
      expect(await rows()).toEqual([
        ['From the start', '65', 'Required', 'Offered'],
        ['5 min', '50', 'Required', 'Offered'],
        ['15 min', '35', 'Not required', 'Offered'],
      ]);

      await screenshot(page, 'console-matching-1280');
      expect((await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
      await page.setViewportSize({ width: 390, height: 844 });
      await screenshot(page, 'console-matching-390');
      expect((await axeViolations(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    },
    90_000,
  );
});
