import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createHarness, type Harness } from './harness';
import { confirmSignUpInBrowser } from './signup';
import { freePort } from '#dev/ports';

/** Debian's chromium (installed by .ci/run when test/web/.needs-chromium exists). */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
export const SCREENSHOT_DIR = path.resolve(__dirname, '..', '..', 'test-artifacts', 'screenshots');

const BASE_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/**
 * `media`: fake camera and microphone, permission prompts auto-accepted (interview room tests).
 * `fakeDevices`: fake camera and microphone only; each context decides the permission
 * (`context.grantPermissions(['camera', 'microphone'])`, else the browser refuses).
 */
export async function launchBrowser(opts: { media?: boolean; fakeDevices?: boolean } = {}): Promise<Browser> {
  const args = [
    ...BASE_ARGS,
    ...(opts.media
      ? ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream']
      : opts.fakeDevices
        ? ['--use-fake-device-for-media-stream']
        : []),
  ];
  return chromium.launch({ executablePath: CHROMIUM_PATH, args });
}

/**
 * Photographs the page as it is now (test-artifacts/screenshots/) and at a phone's width, then
 * checks it there (`expectFitsNarrow`): every page a test looks at is also a page checked at 390 px.
 */
export async function screenshot(page: Page, name: string): Promise<string> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  const size = page.viewportSize();
  if (size && size.width > NARROW_WIDTH) {
    // The same page at a phone's width beside it (`<name>-390.png`; checkPage's `<name>-1280` pairs with its own).
    await page.setViewportSize({ width: NARROW_WIDTH, height: size.height });
    const narrow = `${name.replace(/-1280$/, '')}-${NARROW_WIDTH}`;
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${narrow}.png`), fullPage: true });
    await page.setViewportSize(size);
  }
  await expectFitsNarrow(page);
  return file;
}

/** A phone's CSS width (iPhone 12–15): the narrowest width every page must fit. */
export const NARROW_WIDTH = 390;

/** What a person must be able to see and reach on a phone: cells, headings, controls. */
const KEY_ELEMENTS = 'td, th, h1, h2, h3, button, .btn, summary, input:not([type="hidden"]), select, textarea';

/** Runs in the page (a string: this project's TypeScript has no DOM types). */
const CLIPPING_SCRIPT = `(selector) => {
  const doc = document.documentElement;
  const vw = doc.clientWidth;
  const out = [];
  if (doc.scrollWidth > vw + 1) {
    // Name what sticks out: the innermost elements reaching past the right edge.
    // (a box past the edge, or a box whose unbreakable text runs past it: an id, a URL, a token)
    const wide = [...document.body.querySelectorAll('*')].filter(
      (e) => e.getBoundingClientRect().right > vw + 1 || e.getBoundingClientRect().left + e.scrollWidth > vw + 1,
    );
    const innermost = wide.filter((e) => !wide.some((o) => o !== e && e.contains(o))).slice(0, 3);
    const names = innermost.map((e) => e.tagName.toLowerCase() + (e.className ? '.' + String(e.className).split(' ').join('.') : ''));
    out.push('the document scrolls sideways (' + doc.scrollWidth + ' px wide in ' + vw + ' px): ' + names.join(', '));
  }
  for (const el of document.querySelectorAll(selector)) {
    const r = el.getBoundingClientRect();
    if (r.width <= 1 || r.height <= 1) continue;
    if (!el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true })) continue;
    const left = r.left + window.scrollX;
    const right = r.right + window.scrollX;
    if (left >= -1 && right <= vw + 1) continue;
    const text = (el.innerText || el.getAttribute('aria-label') || el.getAttribute('name') || '').trim();
    out.push('<' + el.tagName.toLowerCase() + '> "' + text.replace(/\\s+/g, ' ').slice(0, 40) + '" spans ' +
      Math.round(left) + '–' + Math.round(right) + ' px of ' + vw);
    if (out.length >= 12) break;
  }
  return out;
}`;

/**
 * Where the page does not fit `width`: the document scrolling sideways, and each visible key
 * element (table cell, heading, button, form field) whose box lies partly outside the viewport
 * horizontally — a column scrolled away inside an overflow box counts, as nobody sees it without
 * swiping. Hidden elements (display: none, closed <details>, visually-hidden 1 px boxes) are skipped.
 * Returns the offenders in words (empty: the page fits).
 */
export async function narrowClipping(page: Page, width = NARROW_WIDTH): Promise<string[]> {
  const size = page.viewportSize();
  if (size?.width !== width) await page.setViewportSize({ width, height: size?.height ?? 900 });
  try {
    return (await page.evaluate(`(${CLIPPING_SCRIPT})(${JSON.stringify(KEY_ELEMENTS)})`)) as string[];
  } finally {
    if (size && size.width !== width) await page.setViewportSize(size);
  }
}

/** Fails the test when the page, at a phone's width, scrolls sideways or hides a key element off-screen. */
export async function expectFitsNarrow(page: Page, width = NARROW_WIDTH): Promise<void> {
  const offenders = await narrowClipping(page, width);
  expect({ url: page.url(), width, offenders }).toEqual({ url: page.url(), width, offenders: [] });
}

/** The harness behind each web harness's base URL: sign-up helpers read its outbox. */
const harnesses = new Map<string, Harness>();

/**
 * The real app listening on a real loopback port, with PUBLIC_BASE_URL pointing at it
 * (join_url, details_url and room URLs must open in the browser).
 */
export async function createWebHarness(env: Record<string, string> = {}): Promise<{ h: Harness; baseUrl: string }> {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const h = await createHarness({ env: { PUBLIC_BASE_URL: baseUrl, CANONICAL_HOST_REDIRECT: 'true', ...env } });
  await h.app.listen({ port, host: '127.0.0.1' });
  harnesses.set(baseUrl, h);
  return { h, baseUrl };
}

let seq = 0;
export const uniqueEmail = (prefix: string) =>
  `${prefix}-${process.pid}-${Date.now().toString(36)}-${seq++}@example.test`;

/**
 * Signs up through the form and confirms through the e-mailed link (decision 0182: read from the
 * outbox of the web harness at `baseUrl`); the page ends on /onboarding (or the invite of `next`).
 */
export async function signUpInBrowser(
  page: Page,
  baseUrl: string,
  o: { role: 'seeker' | 'recruiter'; email?: string; name?: string; password?: string; next?: string },
): Promise<{ email: string; password: string }> {
  const email = o.email ?? uniqueEmail(o.role);
  const password = o.password ?? 'correct horse battery';
  await page.goto(`${baseUrl}/signup${o.next ? `?next=${encodeURIComponent(o.next)}` : ''}`);
  await page.getByLabel('Your name').fill(o.name ?? (o.role === 'seeker' ? 'Ada Seeker' : 'Rita Recruiter'));
  await page.getByLabel('E-mail address').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel(o.role === 'seeker' ? 'Job seeker' : 'Recruiter').check();
  await Promise.all([page.waitForURL(/\/signup\/sent/), page.getByRole('button', { name: 'Create account' }).click()]);
  // The same server under another host name (localhost for 127.0.0.1) is the same harness: by port.
  const h = harnesses.get(baseUrl) ?? [...harnesses].find(([u]) => new URL(u).port === new URL(baseUrl).port)?.[1];
  if (!h)
    throw new Error(
      `signUpInBrowser: ${baseUrl} is not a createWebHarness base URL (the confirmation link is read from its outbox)`,
    );
  await confirmSignUpInBrowser(page, h, email);
  return { email, password };
}

export async function onboardSeekerInBrowser(
  page: Page,
  o: { title?: string; skills?: string; years?: string } = {},
): Promise<void> {
  await page.getByLabel('Job title').fill(o.title ?? 'Backend engineer');
  await page.getByLabel('Summary').fill('I build reliable services.');
  await page.getByLabel('Skills').fill(o.skills ?? 'TypeScript, PostgreSQL, Temporal');
  await page.getByLabel('Years of experience').fill(o.years ?? '6');
  await page.getByLabel('Location').fill('Berlin');
  await page.getByLabel('Remote preference').selectOption('hybrid');
  await Promise.all([
    page.waitForURL((u) => !u.pathname.startsWith('/onboarding')),
    page.getByRole('button', { name: 'Save profile' }).click(),
  ]);
}

export async function onboardRecruiterInBrowser(page: Page, o: { team?: string } = {}): Promise<void> {
  await page.getByLabel('Job title').fill('Talent partner');
  if (o.team !== undefined || (await page.getByLabel('Team name').count()))
    await page.getByLabel('Team name').fill(o.team ?? 'Acme Hiring');
  await Promise.all([
    page.waitForURL((u) => !u.pathname.startsWith('/onboarding')),
    page.getByRole('button', { name: 'Continue' }).click(),
  ]);
}

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[] }>;
}

/**
 * axe-core (npm) on the page as it is now: the serious and critical violations (WCAG 2 A/AA
 * rules). `page.evaluate` runs outside the page's CSP, so the page needs no change to be checked.
 */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(`${AXE_SOURCE}\n;0`);
  const result = (await page.evaluate(
    `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', ` +
      `'wcag21aa'] }, resultTypes: ['violations'] })`,
  )) as { violations: AxeViolation[] };
  return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
}

/**
 * What every browser test does on every page it visits: axe finds no serious or critical
 * violation, and the page is photographed at 1280 px and 390 px (test-artifacts/screenshots/).
 */
export async function checkPage(page: Page, name: string): Promise<void> {
  const violations = await axeViolations(page);
  expect(
    violations.map(
      (v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => JSON.stringify(n.target)).join(', ')}`,
    ),
  ).toEqual([]);
  const size = page.viewportSize() ?? { width: 1280, height: 900 };
  for (const width of [1280, 390]) {
    await page.setViewportSize({ width, height: 900 });
    await screenshot(page, `${name}-${width}`);
  }
  await page.setViewportSize(size);
}
