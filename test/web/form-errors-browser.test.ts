import type { Browser } from 'playwright-core';
import type { Harness } from '../helpers/harness';
import {
  checkPage,
  createWebHarness,
  launchBrowser,
  onboardRecruiterInBrowser,
  signUpInBrowser,
} from '../helpers/browser';
import { createLiveEvent } from '../matches/fixtures';
import { WebClient } from '../helpers/web-client';

/**
 * A refused form is shown again at its POST address; opening that address again (reload, new
 * tab, bookmark) must land on the form's page, never 404 — and resending it changes nothing.
 */
describe('browser: a refused form, then a reload or a fresh visit of its address', () => {
  let h: Harness;
  let baseUrl: string;
  let browser: Browser;
  beforeAll(async () => {
    ({ h, baseUrl } = await createWebHarness());
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('the availability form: error in place, reload keeps the page, the address opens the form page', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const { email } = await signUpInBrowser(page, baseUrl, { role: 'recruiter', name: 'Rhea Reload' });
    await onboardRecruiterInBrowser(page, { team: 'Reload Co' });
    const user = await h.knex('users').where({ email }).first();
    const { team_id: teamId } = await h.knex('team_members').where({ user_id: user.id }).first();
    const event = await createLiveEvent(h, { teamId, slots: 3 });

    await page.goto(`${baseUrl}/recruiter/events/${event.id}/matching`);
    await page.getByLabel('Interviews at a time').fill('0');
    await page.getByRole('button', { name: 'Save availability' }).click();
    await page.locator('#e-capacity').waitFor();
    const postAddress = `/recruiter/events/${event.id}/availability`;
    expect(new URL(page.url()).pathname).toBe(postAddress);
    expect(await page.getByLabel('Interviews at a time').inputValue()).toBe('0');
    await checkPage(page, 'form-error-availability');

    // The browser's reload resends the refused form: the same answer, nothing saved.
    const reloaded = await page.reload();
    expect(reloaded?.status()).not.toBe(404);
    await page.locator('h1:has-text("Matching")').waitFor();
    expect(await h.knex('recruiter_availability').where({ live_event_id: event.id }).first()).toBeUndefined();

    // The address itself, opened fresh (new tab, bookmark): the form's page.
    const fresh = await page.goto(`${baseUrl}${postAddress}`);
    expect(fresh?.status()).toBe(200);
    expect(new URL(page.url()).pathname).toBe(`/recruiter/events/${event.id}/matching`);
    expect(await page.getByRole('button', { name: 'Save availability' }).count()).toBe(1);
    await context.close();
  });

  it('every POST-only page address answers GET with 303 to its form page', async () => {
    const c = new WebClient(h.app);
    const id = '00000000-0000-4000-8000-000000000001';
    const cases: Array<[string, string]> = [
      [`/recruiter/events/${id}/availability`, `/recruiter/events/${id}/matching`],
      [`/recruiter/events/${id}/floor`, `/recruiter/events/${id}/matching`],
      [`/recruiter/events/${id}/jobs`, `/recruiter/events/${id}`],
      [`/recruiter/events/${id}/transition`, `/recruiter/events/${id}`],
      ['/recruiter/events', '/recruiter'],
      ['/recruiter/invites', '/recruiter'],
      [`/recruiter/jobs/${id}/close`, `/recruiter/jobs/${id}`],
      [`/recruiter/candidates/${id}/note`, `/recruiter/candidates/${id}`],
      ['/recruiter/billing/change', '/recruiter/billing'],
      [`/matches/${id}/decline`, `/matches/${id}`],
      [`/matches/${id}/report`, `/matches/${id}`],
      [`/rooms/${id}/complete`, `/matches/${id}`],
      [`/account/api-tokens/${id}/revoke`, '/account/api-tokens'],
      ['/account/webhooks/whk_x/test', '/account/webhooks/whk_x'],
      ['/events/some-fair/join', '/events/some-fair'],
      ['/queue/leave', '/queue'],
      ['/logout', '/'],
    ];
    const got: Array<[string, string]> = [];
    for (const [from] of cases) {
      const r = await c.get(from);
      got.push([from, r.statusCode === 303 ? String(r.headers.location) : `status ${r.statusCode}`]);
    }
    expect(got).toEqual(cases);
  });
});
