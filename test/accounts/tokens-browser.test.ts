import type { Browser } from 'playwright-core';
import type { Harness } from '../helpers/harness';
import {
  checkPage,
  createWebHarness,
  launchBrowser,
  onboardSeekerInBrowser,
  screenshot,
  signUpInBrowser,
} from '../helpers/browser';

describe('browser: sign up, onboard, mint an API token and use it against the API', () => {
  let h: Harness;
  let baseUrl: string;
  let browser: Browser;
  beforeAll(async () => {
    ({ h, baseUrl } = await createWebHarness({ TOKEN_LAST_USED_THROTTLE_MS: '0' }));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await h?.close();
  });

  it('goes from sign-up to a working token, shows last use, revokes it', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/signup`);
    await screenshot(page, '01-signup');
    await signUpInBrowser(page, baseUrl, { role: 'seeker', name: 'Ada Lovelace' });

    // Server-side validation with the PATCH /profile schemas, errors next to the fields.
    await page.getByLabel('Years of experience').fill('75');
    await page.getByRole('button', { name: 'Save profile' }).click();
    await page.waitForSelector('.error-summary');
    expect(await page.locator('#e-title').textContent()).toBeTruthy();
    expect(await page.locator('#e-experience_years').textContent()).toMatch(/60/);
    // The error summary takes focus and links to the field.
    expect(await page.evaluate('document.activeElement.className')).toContain('error-summary');
    await screenshot(page, '02-onboarding-errors');
    // The messages come from the web catalogue: the field in words, no validator text.
    expect(await page.locator('#e-experience_years').textContent()).toContain('Years of experience must be 60 or less');
    expect(await page.locator('.error-summary').textContent()).not.toMatch(/expected|Too small|Too big|invalid_type|_/);
    await checkPage(page, 'form-error-onboarding');
    await onboardSeekerInBrowser(page);
    expect(new URL(page.url()).pathname).toBe('/');

    await page.goto(`${baseUrl}/settings/api-tokens`);
    expect(new URL(page.url()).pathname).toBe('/account/api-tokens');
    // A token without scopes is refused next to the scopes.
    await page.locator('#f-name').fill('my job agent');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.waitForSelector('#e-scopes');
    await page.getByLabel('profile:read').check();
    await page.getByLabel('queue:read').check();
    expect(await page.locator('label[for="scope-events-write"] .badge-recruiter').count()).toBe(1);
    await page.getByLabel('Expiry').selectOption('7');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.waitForSelector('#new-token');
    const token = await page.locator('#new-token').inputValue();
    expect(token).toMatch(/^svc_[0-9A-Za-z]{36}$/);
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: baseUrl });
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.locator('.copy-status', { hasText: 'Copied' }).waitFor();
    await screenshot(page, '03-api-token-minted');

    // The token works against the API and its scopes are enforced.
    const profile = await fetch(`${baseUrl}/api/v1/profile`, { headers: { authorization: `Bearer ${token}` } });
    expect(profile.status).toBe(200);
    expect(((await profile.json()) as { profile: unknown }).profile).toMatchObject({
      full_name: 'Ada Lovelace',
      title: 'Backend engineer',
      skills: ['TypeScript', 'PostgreSQL', 'Temporal'],
      experience_years: 6,
      remote_preference: 'hybrid',
    });
    const denied = await fetch(`${baseUrl}/api/v1/queue/join`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
    });
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as { code: string }).code).toBe('INSUFFICIENT_SCOPE');

    // Shown once: a reload lists it by prefix with its last use, never the token itself.
    await page.goto(`${baseUrl}/account/api-tokens`);
    const html = await page.content();
    expect(html).not.toContain(token);
    expect(html).toContain(token.slice(0, 8));
    // Times are <time> elements: the machine-readable instant, UTC on hover, the text in the viewer's zone.
    const lastUsed = page.locator('tr:has-text("my job agent") .last-used time');
    expect(await lastUsed.getAttribute('datetime')).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(await lastUsed.getAttribute('title')).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d UTC$/);
    await page.locator('time[data-localized]').first().waitFor();

    await page.locator('summary[aria-label="Revoke token my job agent"]').click();
    await page.getByRole('button', { name: 'Yes, revoke my job agent' }).click();
    await page.waitForSelector('.notice');
    expect(await page.locator('tr:has-text("my job agent") .state').textContent()).toBe('revoked');
    const after = await fetch(`${baseUrl}/api/v1/profile`, { headers: { authorization: `Bearer ${token}` } });
    expect(after.status).toBe(401);

    // Keyboard: the skip link is the first stop and leads to the main content.
    await page.keyboard.press('Tab');
    expect(await page.evaluate('document.activeElement.textContent')).toBe('Skip to content');

    // Narrow screens: nothing overflows horizontally.
    await page.setViewportSize({ width: 375, height: 800 });
    await page.goto(`${baseUrl}/account/api-tokens`);
    await screenshot(page, '04-api-tokens-mobile');
    const overflowing = await page.evaluate(
      `[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > ` +
        `window.innerWidth + 1 && !e.closest('.table-wrap')).map((e) => e.tagName + '.' + ` +
        `e.className + '#' + e.id)`,
    );
    expect(overflowing).toEqual([]);
    expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth + 1')).toBe(true);
    await context.close();
  });

  it("shows times in the viewer's zone with UTC on hover (a browser in Asia/Kolkata, UTC+5:30)", async () => {
    const context = await browser.newContext({
      viewport: { width: 1280, height: 900 },
      timezoneId: 'Asia/Kolkata',
      locale: 'en-GB',
    });
    const page = await context.newPage();
    await signUpInBrowser(page, baseUrl, { role: 'seeker', name: 'Kiran Local' });
    await onboardSeekerInBrowser(page);
    await page.goto(`${baseUrl}/account/api-tokens`);
    await page.locator('#f-name').fill('zone agent');
    await page.getByLabel('profile:read').check();
    await page.getByLabel('Expiry').selectOption('7');
    await page.getByRole('button', { name: 'Create token' }).click();
    await page.waitForSelector('#new-token');
    await page.goto(`${baseUrl}/account/api-tokens`);
    const created = page.locator('tr:has-text("zone agent") time').first();
    await page.locator('tr:has-text("zone agent") time[data-localized]').first().waitFor();
    const iso = (await created.getAttribute('datetime'))!;
    const at = new Date(iso);
    // The UTC time stays on hover; the text is the same instant 5 h 30 min later on the clock.
    expect(await created.getAttribute('title')).toBe(`${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`);
    const local = new Date(at.getTime() + 330 * 60_000);
    const hhmm = `${String(local.getUTCHours()).padStart(2, '0')}:${String(local.getUTCMinutes()).padStart(2, '0')}`;
    const text = (await created.textContent())!;
    expect(text).toContain(hhmm);
    expect(text).toContain(String(local.getUTCDate()));
    expect(text).not.toContain('UTC');
    expect(text).toMatch(/GMT\+5:30|IST/);
    await checkPage(page, 'local-times-api-tokens');
    await context.close();
  });
});
