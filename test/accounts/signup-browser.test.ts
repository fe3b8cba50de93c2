import type { Browser } from 'playwright-core';
import type { Harness } from '../helpers/harness';
import { checkPage, createWebHarness, launchBrowser, uniqueEmail } from '../helpers/browser';
import { signupLinkFor } from '../helpers/signup';

/** The sign-up pages of decision 0182 in a real browser: axe (serious/critical) and screenshots at 1280 and 390 px. */
describe('browser: sign-up with an e-mail confirmation step', () => {
  let h: Harness;
  let baseUrl: string;
  let browser: Browser;
  beforeAll(async () => {
    // A low sign-up limit per IP (decision 0201) so the refused form can be looked at.
    ({ h, baseUrl } = await createWebHarness({ SIGNUP_ATTEMPTS_PER_IP: '2' }));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('form → "check your inbox" → the link\'s page → onboarding; a used link says so', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    const email = uniqueEmail('signup');
    await page.goto(`${baseUrl}/signup`);
    await page.getByLabel('Your name').fill('Ada Seeker');
    await page.getByLabel('E-mail address').fill(email);
    await page.getByLabel('Password').fill('correct horse battery');
    await Promise.all([
      page.waitForURL(/\/signup\/sent$/),
      page.getByRole('button', { name: 'Create account' }).click(),
    ]);
    expect(await page.locator('h1').textContent()).toBe('Check your inbox');
    await checkPage(page, 'signup-sent');

    const link = await signupLinkFor(h, email);
    await page.goto(link);
    expect(await page.locator('h1').textContent()).toBe('Finish creating your account');
    expect(await page.locator('main').textContent()).toContain(email);
    await checkPage(page, 'signup-confirm');
    await Promise.all([page.waitForURL(/\/onboarding/), page.getByRole('button', { name: 'Create account' }).click()]);

    await page.goto(link);
    expect(await page.locator('h1').textContent()).toBe('This link is not valid');
    await checkPage(page, 'signup-link-not-valid');
  });

  it('too many sign-ups from one address: the form again with the reason (429), axe-clean', async () => {
    const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    let refused = false;
    for (let i = 0; i < 3 && !refused; i++) {
      await page.goto(`${baseUrl}/signup`);
      await page.getByLabel('Your name').fill('Flood Seeker');
      await page.getByLabel('E-mail address').fill(uniqueEmail('signup-flood'));
      await page.getByLabel('Password').fill('correct horse battery');
      const [res] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname === '/signup'),
        page.getByRole('button', { name: 'Create account' }).click(),
      ]);
      await page.waitForLoadState();
      refused = res.status() === 429;
    }
    expect(refused).toBe(true);
    expect(await page.locator('h1').textContent()).toBe('Create your account');
    expect(await page.locator('main').textContent()).toMatch(
      /Too many sign-ups from your network\. Try again in \d+ seconds\./,
    );
    await checkPage(page, 'signup-rate-limited');
  });
});
