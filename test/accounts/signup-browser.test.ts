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
    ({ h, baseUrl } = await createWebHarness());
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
    await Promise.all([page.waitForURL(/\/signup\/sent$/), page.getByRole('button', { name: 'Create account' }).click()]);
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
});
