import type { Browser, Page } from 'playwright-core';
import type { Harness } from '../helpers/harness';
import {
  checkPage,
  createWebHarness,
  launchBrowser,
  onboardRecruiterInBrowser,
  onboardSeekerInBrowser,
  signUpInBrowser,
} from '../helpers/browser';

/** Skill inputs suggest from the skill vocabulary as one types (the profile form and the console's job form). */
describe('browser: skill suggestions', () => {
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
  const newPage = async (): Promise<Page> =>
    (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();

  /** The options the browser offers for a skill input now: [value, label]. */
  const suggestions = (page: Page, label: string) =>
    page
      .getByLabel(label)
      .evaluate((el: any) => Array.from(el.list?.options ?? [], (o: any) => [o.value as string, o.label as string]));

  it('the profile form suggests the skill being typed, by label or alias, keeping the skills before it', async () => {
    const page = await newPage();
    await signUpInBrowser(page, baseUrl, { role: 'seeker' });
    const skills = page.getByLabel('Skills');
    await skills.fill('');
    await skills.pressSequentially('TypeScript, k8');
    expect(await suggestions(page, 'Skills')).toContainEqual(['TypeScript, Kubernetes', 'TypeScript, k8 → Kubernetes']);
    await skills.fill('');
    await skills.pressSequentially('Postg');
    const values = (await suggestions(page, 'Skills')).map(([v]) => v);
    expect(values[0]).toBe('PostgreSQL');
    await checkPage(page, 'skill-suggestions-profile');
    // What was typed is kept; the canonical ids are stored beside it.
    await onboardSeekerInBrowser(page, { skills: 'Postgres, k8s, golang' });
    const row = await h.knex('profiles').orderBy('created_at', 'desc').first();
    expect(row.skills).toEqual(['Postgres', 'k8s', 'golang']);
    expect([...row.skill_ids].sort()).toEqual(['go', 'kubernetes', 'postgresql']);
  }, 60_000);

  it("the console's job form suggests skills in both skill fields", async () => {
    const page = await newPage();
    await signUpInBrowser(page, baseUrl, { role: 'recruiter' });
    await onboardRecruiterInBrowser(page, { team: 'Skills Co' });
    await page.getByRole('link', { name: 'Create an event' }).click();
    await page.getByLabel('Address (slug)').fill(`skills-${Date.now().toString(36)}`);
    await page.getByLabel('Company name').fill('Skills Co');
    await page.getByLabel('Headline').fill('Engineers wanted');
    await Promise.all([
      page.waitForURL(/\/recruiter\/events\/[0-9a-f-]{36}/),
      page.getByRole('button', { name: 'Create event' }).click(),
    ]);
    await page.getByText('Add a job').click();
    await page.getByLabel('Essential skills').pressSequentially('golang');
    expect(await suggestions(page, 'Essential skills')).toContainEqual(['Go', 'golang → Go']);
    await page.getByLabel('Bonus skills').pressSequentially('React, node');
    expect((await suggestions(page, 'Bonus skills')).map(([v]) => v)).toContain('React, Node.js');
    await checkPage(page, 'skill-suggestions-job-form');
  }, 60_000);
});
