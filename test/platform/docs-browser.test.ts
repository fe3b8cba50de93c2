import { setTimeout as sleep } from 'node:timers/promises';
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import type { Harness } from '../helpers/harness';
import path from 'node:path';
import {
  SCREENSHOT_DIR,
  createWebHarness,
  launchBrowser,
  onboardSeekerInBrowser,
  screenshot,
  signUpInBrowser,
} from '../helpers/browser';

const AXE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core on the current page: serious and critical violations only. */
/** Polls the page's text (page.evaluate runs through the DevTools protocol, outside the page's CSP). */
async function waitForText(page: Page, text: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!((await page.evaluate('document.body.innerText')) as string).includes(text)) {
    if (Date.now() > deadline) throw new Error(`"${text}" did not appear within ${timeoutMs} ms`);
    await sleep(200);
  }
}

async function seriousViolations(
  page: Page,
): Promise<Array<{ id: string; impact: string; nodes: number; help: string }>> {
  await page.addScriptTag({ content: AXE });
  const result = (await page.evaluate('axe.run(document, { resultTypes: ["violations"] })')) as {
    violations: Array<{ id: string; impact: string; help: string; nodes: unknown[] }>;
  };
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ id: v.id, impact: v.impact, nodes: v.nodes.length, help: v.help }));
}

describe('browser: the API reference at /docs/api renders locally, under its CSP, with every operation', () => {
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

  it(
    'loads nothing from another origin, violates no CSP, and lists every operation of the ' + 'OpenAPI document',
    async () => {
      const doc = (await h.call({ method: 'GET', url: '/api/v1/openapi.json' })).json();
      const summaries: string[] = [];
      for (const item of Object.values<Record<string, { summary?: string }>>(doc.paths))
        for (const op of Object.values(item)) if (op?.summary) summaries.push(op.summary);
      expect(summaries.length).toBeGreaterThan(40);

      for (const [width, height, name] of [
        [1280, 900, 'docs-api-1280'],
        [390, 844, 'docs-api-390'],
      ] as const) {
        const context = await browser.newContext({ viewport: { width, height } });
        const page = await context.newPage();
        const foreign: string[] = [];
        const violations: string[] = [];
        page.on('request', (r) => {
          const u = new URL(r.url());
          if (!['data:', 'blob:'].includes(u.protocol) && u.origin !== baseUrl) foreign.push(r.url());
        });
        const failed: string[] = [];
        page.on('response', (r) => {
          if (r.status() >= 400) failed.push(`${r.status()} ${r.url()}`);
        });
        page.on('console', (m) => {
          if (/Content Security Policy/i.test(m.text())) violations.push(m.text());
        });
        const res = await page.goto(`${baseUrl}/docs/api/`);
        expect(res?.status()).toBe(200);
        expect(res?.headers()['content-security-policy']).toMatch(/script-src 'self' 'sha256-/);
        // The narrow layout renders the introduction first and the operations as one scrolls.
        await waitForText(
          page,
          width === 1280 ? "Create or resume the caller's queue entry" : 'Job-Fair Matching Service API',
        );
        // The viewport, not the full page: the reference is one very long page.
        fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
        await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}.png`) });
        if (width === 1280) {
          const text = await (page.evaluate('document.body.innerText') as Promise<string>);
          const missing = summaries.filter((s) => !text.includes(s));
          expect(missing).toEqual([]);
          // The webhooks section (the event catalogue) is rendered too, one entry per event type.
          const events = Object.keys(doc.webhooks);
          expect(events.length).toBeGreaterThanOrEqual(6);
          expect(events.filter((t) => !text.includes(t))).toEqual([]);
          await page.getByText('interview.completed', { exact: true }).first().scrollIntoViewIfNeeded();
          await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'docs-api-webhooks-1280.png') });
        }
        expect(foreign).toEqual([]);
        expect(failed).toEqual([]);
        expect(violations).toEqual([]);
        await context.close();
      }
    },
  );

  it('has no serious or critical axe violations', async () => {
    // bypassCSP only so that axe itself can be injected.
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/docs/api/`);
    await waitForText(page, "How the caller's profile compares with a job");
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it(
    'the tokens page: scope descriptions, presets that pre-tick boxes, links to the reference ' + 'and the agent guide',
    async () => {
      for (const [width, height] of [
        [1280, 900],
        [390, 844],
      ] as const) {
        const context = await browser.newContext({ viewport: { width, height }, bypassCSP: true });
        const page = await context.newPage();
        await signUpInBrowser(page, baseUrl, { role: 'seeker' });
        await onboardSeekerInBrowser(page);
        await page.goto(`${baseUrl}/account/api-tokens`);
        expect(await page.locator('#scope-queue-write-desc').textContent()).toMatch(
          /Join and leave the matchmaking queue/,
        );
        expect(await page.locator('input[name="scopes"]:checked').count()).toBe(0);
        await page.getByRole('link', { name: 'Agent for a job seeker' }).click();
        await page.waitForURL(/preset=seeker-agent/);
        const ticked = await page
          .locator('input[name="scopes"]:checked')
          .evaluateAll((els) => els.map((e) => (e as unknown as { value: string }).value));
        expect(ticked.sort()).toEqual([
          'jobs:read',
          'matches:read',
          'matches:write',
          'profile:read',
          'profile:write',
          'queue:read',
          'queue:write',
        ]);
        expect(await page.locator('a[href="/docs/api/"]').count()).toBeGreaterThan(0);
        expect(await page.locator('a[href="/docs/agents.md"]').count()).toBeGreaterThan(0);
        await screenshot(page, `tokens-presets-${width}`);
        expect(await seriousViolations(page)).toEqual([]);
        // The preset only pre-ticks: creating the token is still the person's act.
        await page.locator('#f-name').fill('my seeker agent');
        await page.getByRole('button', { name: 'Create token' }).click();
        await page.waitForSelector('#new-token');
        const token = await page.locator('#new-token').inputValue();
        const row = await h.knex('api_tokens').where({ name: 'my seeker agent' }).orderBy('created_at', 'desc').first();
        expect(row.scopes.sort()).toEqual(ticked.sort());
        expect(token).toMatch(/^svc_/);
        await context.close();
      }
    },
  );
});
