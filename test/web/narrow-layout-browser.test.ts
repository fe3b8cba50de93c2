import fs from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { axeViolations, launchBrowser, narrowClipping } from '../helpers/browser';
import { cardTable } from '#apps/api/src/web/tables';
import { html } from '#apps/api/src/web/html';

const CSS = fs.readFileSync(path.resolve(__dirname, '../../apps/api/src/web/static/app.css'), 'utf8');

/** A matches-like table: seven columns, the last one the one that matters on a phone. */
const table = () =>
  html`<div class="table-wrap"><table><caption class="visually-hidden">Matches</caption>
<thead><tr><th scope="col">Job</th><th scope="col">Candidate</th><th scope="col">Event</th><th scope="col">Score</th><th scope="col">Status</th><th scope="col">Made</th><th scope="col">Accept by</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${[1, 2].map(
    (i) =>
      html`<tr><th scope="row"><a href="/matches/${i}">Senior Backend Engineer ${i}</a></th><td>Ada Lovelace-Byron</td><td>acme-compilers-autumn</td><td>87</td><td><span class="state">matched</span></td><td>28 Nov 2025, 14:05</td><td>28 Nov 2025, 14:20 (4 min)</td><td><button class="btn">Accept</button></td></tr>`,
  )}</tbody></table></div>`;

const shell = (body: string) =>
  `<!doctype html><html lang="en"><head><meta name="viewport" content="width=device-width, initial-scale=1">` +
  `<title>t</title><style>${CSS}</style></head><body><main class="container"><h1>Matches</h1>${body}</main></body></html>`;

/** The narrow-screen check of test/helpers/browser.ts (run on every photographed page) can fail. */
describe('browser: the 390 px clipping check', () => {
  let browser: Browser;
  let page: Page;
  beforeAll(async () => {
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  }, 60_000);
  afterAll(async () => browser?.close());

  it('catches a table whose columns are scrolled off a phone screen (a plain .table-wrap)', async () => {
    await page.setContent(shell(table().value));
    const offenders = await narrowClipping(page);
    expect(offenders.some((o) => o.startsWith('<td> "28 Nov 2025, 14:20 (4 min)"'))).toBe(true);
    expect(offenders.some((o) => o.startsWith('<th> "Accept by"'))).toBe(true);
    expect(page.viewportSize()).toEqual({ width: 1280, height: 900 });
  });

  it('catches a page that scrolls sideways and a button pushed off-screen', async () => {
    await page.setContent(shell('<div style="width: 700px"><button class="btn">Pay</button></div>'));
    const offenders = await narrowClipping(page);
    expect(offenders[0]).toMatch(/^the document scrolls sideways/);
    await page.setContent(shell('<p style="margin-left: 420px"><button class="btn">Pay</button></p>'));
    expect(await narrowClipping(page)).toEqual(
      expect.arrayContaining([expect.stringMatching(/^<button> "Pay" spans 420–\d+ px of 390$/)]),
    );
  });

  it('passes the same table as cards (cardTable): every cell labelled with its column, axe clean', async () => {
    const cards = cardTable(table()).value;
    expect(cards).toContain('class="table-wrap table-cards"');
    expect(cards).toContain('<td data-label="Accept by">28 Nov 2025, 14:20 (4 min)</td>');
    expect(cards).toContain('<td><button class="btn">Accept</button></td>');
    await page.setContent(shell(cards));
    expect(await narrowClipping(page)).toEqual([]);
    await page.setViewportSize({ width: 390, height: 900 });
    expect(
      await page.evaluate(`getComputedStyle(document.querySelector('td[data-label="Accept by"]'), '::before').content`),
    ).toBe('"Accept by: "');
    expect((await axeViolations(page)).map((v) => v.id)).toEqual([]);
    // Wide screens keep the table.
    await page.setViewportSize({ width: 1280, height: 900 });
    expect(await page.locator('thead').isVisible()).toBe(true);
  });

  it('ignores what nobody sees: closed details, visually hidden text, display: none', async () => {
    await page.setContent(
      shell(
        '<details><summary class="btn">Menu</summary><button style="margin-left: 600px">Hidden</button></details>' +
          '<h2 class="visually-hidden">Only for screen readers</h2>' +
          '<div style="display: none"><h2 style="margin-left: 800px">Gone</h2></div>',
      ),
    );
    expect(await narrowClipping(page)).toEqual([]);
  });
});
