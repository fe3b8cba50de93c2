import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { eventually, type Harness } from '../helpers/harness';
import {
  createWebHarness,
  launchBrowser,
  onboardRecruiterInBrowser,
  screenshot,
  signUpInBrowser,
} from '../helpers/browser';
import { CARDS } from './helpers';

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core in the page (evaluated over DevTools, so the page's CSP stays as it is): serious or critical findings. */
async function axeSerious(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(async () =>
    (
      globalThis as unknown as {
        axe: { run: () => Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> };
      }
    ).axe.run(),
  );
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.nodes.length})`);
}

/** Screenshots at 1280 and 390 px plus axe, for each page this capability adds. */
async function look(page: Page, name: string): Promise<void> {
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `billing-${name}-${width}`);
  }
  expect(await axeSerious(page)).toEqual([]);
}

/** The page a payment redirected to, as first rendered (no reload): the notice and the plan paid for. */
async function paidPageShows(page: Page, plan: string, notice: string): Promise<void> {
  expect(await page.locator('.notice').textContent()).toBe(notice);
  expect(await page.locator('#billing-plan').textContent()).toBe(plan);
  expect(await page.locator('#billing-status').textContent()).toBe('active');
}

const planShown = (page: Page, baseUrl: string, plan: string) =>
  eventually(
    async () => {
      await page.goto(`${baseUrl}/recruiter/billing`);
      return (await page.locator('#billing-plan').textContent()) === plan;
    },
    15_000,
    200,
  );

describe('browser: billing with the local provider', () => {
  let h: Harness;
  let baseUrl: string;
  let browser: Browser;
  beforeAll(async () => {
    ({ h, baseUrl } = await createWebHarness({ BILLING_FREE_MAX_LIVE_EVENTS: '1' }));
    browser = await launchBrowser();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it(
    'hosted checkout: a declined card, then a card that asks for authentication; invoices with ' +
      'a PDF; an off-session upgrade with SCA; cancel',
    async () => {
      const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
      const page = await context.newPage();
      await signUpInBrowser(page, baseUrl, { role: 'recruiter' });
      await onboardRecruiterInBrowser(page, { team: 'Billing Co' });
      await page.goto(`${baseUrl}/recruiter`);
      await page.getByRole('link', { name: 'Billing' }).click();
      await page.waitForURL(/\/recruiter\/billing$/);
      expect(await page.locator('#billing-plan').textContent()).toBe('Free');
      await look(page, 'free');

      await page.getByLabel('Pro').check();
      await page.getByLabel('Monthly').check();
      await Promise.all([
        page.waitForURL(/\/billing\/local\/checkout\/cs_local_/),
        page.getByRole('button', { name: 'Pay on the checkout page' }).click(),
      ]);
      await look(page, 'hosted-checkout');
      await page.getByLabel('Card number').fill(CARDS.declined);
      await page.getByRole('button', { name: 'Pay', exact: true }).click();
      await page.locator('#card-error').waitFor();
      expect(await page.locator('#card-error').textContent()).toMatch(/declined/);
      await page.getByLabel('Card number').fill(CARDS.authenticate);
      await Promise.all([
        page.waitForURL(/\/billing\/local\/authenticate\//),
        page.getByRole('button', { name: 'Pay', exact: true }).click(),
      ]);
      await look(page, 'authenticate');
      await Promise.all([
        page.waitForURL(/\/recruiter\/billing\?done=authenticated/),
        page.getByRole('button', { name: 'Complete authentication' }).click(),
      ]);
      // The page the payment lands on already shows what was paid for: no reload.
      await paidPageShows(page, 'Pro', 'Payment authenticated. Your plan is updated below.');
      await planShown(page, baseUrl, 'Pro');
      expect(await page.locator('#billing-status').textContent()).toBe('active');
      expect(await page.content()).toMatch(/3184/);
      await look(page, 'pro');

      // The invoice and its PDF. The invoice arrives as its own provider event (as with Stripe), so it
      // can land after the plan: reload until it is listed.
      await eventually(
        async () => {
          await page.goto(`${baseUrl}/recruiter/billing`);
          return (await page.getByRole('link', { name: /PDF/ }).count()) > 0;
        },
        15_000,
        200,
      );
      const pdfHref = await page.getByRole('link', { name: /PDF/ }).first().getAttribute('href');
      const pdf = await page.request.get(pdfHref!);
      expect(pdf.headers()['content-type']).toBe('application/pdf');
      expect((await pdf.body()).subarray(0, 5).toString()).toBe('%PDF-');

      // Upgrade with the saved card: this card asks for authentication off-session too.
      await page.getByLabel('Enterprise').check();
      await page.getByLabel('Yearly').check();
      await Promise.all([
        page.waitForURL(/\/billing\/local\/authenticate\/pi_local_/),
        page.getByRole('button', { name: 'Charge the saved card' }).click(),
      ]);
      await Promise.all([
        page.waitForURL(/\/recruiter\/billing\?done=authenticated/),
        page.getByRole('button', { name: 'Complete authentication' }).click(),
      ]);
      await planShown(page, baseUrl, 'Enterprise');
      expect(await page.locator('#invoices tbody tr').count()).toBe(2);

      await Promise.all([
        page.waitForURL(/done=cancelled/),
        page.getByRole('button', { name: 'Cancel plan at period end' }).click(),
      ]);
      expect(await page.locator('.notice').textContent()).toMatch(/end of the current period/);
      expect(await page.content()).toMatch(/Ends/);
      await context.close();
    },
  );

  it('the embedded form on the Billing page; the plan-limit message on the event page', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const { email } = await signUpInBrowser(page, baseUrl, { role: 'recruiter' });
    await onboardRecruiterInBrowser(page, { team: 'Embedded Co' });
    const user = (await h.app.services.deps.repos.accounts.findUserByEmail(email))!;
    const token = (
      await h.app.services.accounts.tokens.mint(user.id, {
        name: 'browser test',
        scopes: ['events:read', 'events:write'],
      })
    ).token;
    const make = async () =>
      (
        await h.call({
          method: 'POST',
          url: '/api/v1/live-events',
          token,
          payload: {
            slug: `lim-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`,
            company_name: 'Embedded Co',
            visibility: 'open_invite',
          },
        })
      ).json().event.id as string;
    const first = await make();
    const second = await make();
    expect((await h.call({ method: 'POST', url: `/api/v1/live-events/${first}/go-live`, token })).statusCode).toBe(200);
    await page.goto(`${baseUrl}/recruiter/events/${second}`);
    await page.getByRole('button', { name: 'Go live' }).click();
    await page.locator('p.error[role="alert"]').waitFor();
    expect(await page.locator('p.error[role="alert"]').textContent()).toMatch(
      /free plan allows 1 live event at once.*upgrade the plan on the Billing page\.\s*Go to the Billing page$/,
    );
    // The way to upgrade is a link, not an address written out.
    expect(await page.locator('p.error[role="alert"]').textContent()).not.toMatch(/https?:|\/recruiter\//);
    expect(await page.locator('p.error[role="alert"] a').getAttribute('href')).toBe('/recruiter/billing');
    await screenshot(page, 'billing-plan-limit-1280');

    await page.goto(`${baseUrl}/recruiter/billing`);
    await page.getByLabel('Pro').check();
    await page.getByRole('button', { name: 'Pay here' }).click();
    await page.locator('#embedded-checkout').waitFor();
    await look(page, 'embedded');
    await page.locator('#embedded-checkout').getByLabel('Card number').fill(CARDS.success);
    await Promise.all([
      page.waitForURL(/done=paid/),
      page.locator('#embedded-checkout').getByRole('button', { name: 'Pay', exact: true }).click(),
    ]);
    await paidPageShows(page, 'Pro', 'Payment received. Your plan is updated below.');
    expect(await page.locator('dt:has-text("Live events at once") + dd').textContent()).toBe('1 of 5');
    await look(page, 'after-payment');
    // Now the second event may go live.
    await page.goto(`${baseUrl}/recruiter/events/${second}`);
    await Promise.all([
      page.waitForURL(new RegExp(`/recruiter/events/${second}$`)),
      page.getByRole('button', { name: 'Go live' }).click(),
    ]);
    expect((await h.knex('live_events').where({ id: second }).first()).status).toBe('live');
    await context.close();
  });
});
