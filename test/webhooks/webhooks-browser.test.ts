import http from 'node:http';
import { createHmac } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';
import { eventually, type Harness } from '../helpers/harness';
import {
  createWebHarness,
  launchBrowser,
  onboardSeekerInBrowser,
  screenshot,
  signUpInBrowser,
} from '../helpers/browser';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

describe('browser: /account/webhooks', () => {
  let h: Harness;
  let baseUrl: string;
  let browser: Browser;
  let receiver: http.Server;
  let receiverUrl: string;
  const received: Received[] = [];

  beforeAll(async () => {
    ({ h, baseUrl } = await createWebHarness({ WEBHOOK_ALLOW_LOOPBACK: 'true' }));
    browser = await launchBrowser();
    receiver = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c) => (body += c));
      req.on('end', () => {
        received.push({ headers: req.headers, body });
        res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
      });
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/jobfair`;
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((r) => receiver?.close(r));
    await h?.close();
  });

  it(
    'creates a subscription from the page (secret shown once), sends a test event the receiver ' +
      'verifies, pauses and re-enables',
    async () => {
      const context = await browser.newContext({ viewport: { width: 1200, height: 900 } });
      const page = await context.newPage();
      await signUpInBrowser(page, baseUrl, { role: 'seeker' });
      await onboardSeekerInBrowser(page);
      await page.goto(`${baseUrl}/account/webhooks`);

      // Server-side validation with the API's schema: no events, a non-http URL.
      await page.getByLabel('Target URL').fill('ftp://example.com/hook');
      await page.getByLabel('match.matched').uncheck();
      await page.getByRole('button', { name: 'Add subscription' }).click();
      await page.locator('.error-summary').waitFor();
      expect(await page.locator('#e-events').count()).toBe(1);
      await page.getByLabel('match.matched').check();
      // By its value: match.no_show's description also says "interview.completed".
      await page.locator('input[name="events"][value="interview.completed"]').check();
      await page.getByRole('button', { name: 'Add subscription' }).click();
      await page.locator('#e-target_url').waitFor();
      expect(await page.locator('#e-target_url').textContent()).toMatch(/http/i);

      await page.getByLabel('Target URL').fill(receiverUrl);
      await page.getByLabel('Description').fill('my receiver');
      await page.getByRole('button', { name: 'Add subscription' }).click();
      await page.locator('#new-secret').waitFor();
      const secret = await page.locator('#new-secret').inputValue();
      expect(secret).toMatch(/^svc_whsec_/);
      const row = await h.knex('webhook_subscriptions').where({ target_url: receiverUrl }).first();
      expect(row.events).toEqual(['match.matched', 'interview.completed']);
      expect(JSON.stringify(row)).not.toContain(secret);
      await screenshot(page, '13-webhooks-created');
      await page.goto(`${baseUrl}/account/webhooks`);
      expect(await page.content()).not.toContain(secret);

      // Send a test event: the local receiver gets a signed delivery.
      await page.getByRole('link', { name: 'Log and test' }).click();
      await page.getByRole('button', { name: 'Send test event' }).click();
      await page.locator('#test-result').waitFor();
      expect(await page.locator('#test-result').textContent()).toContain('delivered');
      const got = await eventually(async () => received.find((r) => r.headers['svc-event'] === 'webhook.test'));
      const sig = String(got.headers['svc-signature']);
      const [, t, v1] = /^t=(\d+),v1=([0-9a-f]{64})/.exec(sig)!;
      expect(createHmac('sha256', secret).update(`${t}.${got.body}`).digest('hex')).toBe(v1);
      const envelope = JSON.parse(got.body);
      expect(envelope).toMatchObject({ type: 'webhook.test', data: { webhook_id: row.id, test: true } });
      expect(got.headers['svc-subscription-id']).toBe(row.id);

      // The delivery log lists the attempt.
      await page.goto(`${baseUrl}/account/webhooks/${row.id}`);
      expect(await page.locator('#delivery-log').textContent()).toContain('webhook.test');
      expect(await page.locator('#delivery-log').textContent()).toContain('delivered');
      await screenshot(page, '14-webhook-delivery-log');

      // Pause and re-enable through the subscription actor.
      await page.getByRole('button', { name: 'Pause' }).click();
      await page.locator('[data-webhook-status="disabled"]').waitFor();
      await page.getByRole('button', { name: 'Re-enable' }).click();
      await page.locator('[data-webhook-status="active"]').waitFor();
      expect((await h.knex('webhook_subscriptions').where({ id: row.id }).first()).status).toBe('active');

      // Another account cannot see it.
      const other = await browser.newContext();
      const p2 = await other.newPage();
      await signUpInBrowser(p2, baseUrl, { role: 'seeker' });
      const res = await p2.goto(`${baseUrl}/account/webhooks/${row.id}`);
      expect(res!.status()).toBe(404);
      await other.close();
      await context.close();
    },
  );
});
