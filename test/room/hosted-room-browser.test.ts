import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually, type Harness } from '../helpers/harness';
import {
  checkPage,
  createWebHarness,
  launchBrowser,
  onboardRecruiterInBrowser,
  onboardSeekerInBrowser,
  signUpInBrowser,
} from '../helpers/browser';

/**
 * "Enter the interview room" with a hosted video provider (VIDEO_PROVIDER_URL): a stub provider on
 * another loopback port issues room URLs on its own origin. The 303 to it must pass the page's CSP
 * (`form-action` allows exactly the provider's origin), and a provider failure is told on the page.
 */
describe('browser: entering a hosted provider room on another origin', () => {
  let h: Harness;
  let baseUrl: string;
  let browser: Browser;
  let provider: http.Server;
  let providerOrigin: string;
  let providerDown = false;
  const issued: Array<{ room: string; participant: string; role: string }> = [];
  const contexts: BrowserContext[] = [];

  beforeAll(async () => {
    provider = http.createServer((req, res) => {
      if (req.method === 'POST' && req.url === '/rooms') {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => {
          if (providerDown) {
            res.writeHead(502).end();
            return;
          }
          const b = JSON.parse(body) as { room: string; participant: string; role: string };
          issued.push(b);
          res
            .writeHead(201, { 'content-type': 'application/json' })
            .end(JSON.stringify({ url: `${providerOrigin}/room/${b.room}?p=${b.participant}` }));
        });
        return;
      }
      if (req.method === 'GET' && req.url?.startsWith('/room/')) {
        res
          .writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
          .end(
            '<!doctype html><html lang="en"><head><title>Hosted ' +
              'room</title></head><body><main><h1>Hosted interview room</h1></main></body></html>',
          );
        return;
      }
      res.writeHead(404).end();
    });
    await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', () => resolve()));
    // "localhost" and another port: another origin than the app's 127.0.0.1.
    providerOrigin = `http://localhost:${(provider.address() as AddressInfo).port}`;
    ({ h, baseUrl } = await createWebHarness({
      VIDEO_PROVIDER_URL: providerOrigin,
      MATCHMAKER_INTERVAL_MS: '100',
      QUEUE_ENTRY_TTL_MS: '600000',
      MATCH_ACCEPT_WINDOW_MS: '600000',
      INTERVIEW_LENGTH_MS: '600000',
    }));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await h?.close();
    await new Promise<void>((resolve) => provider?.close(() => resolve()));
  });

  const newPage = async (): Promise<Page> => {
    const c = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(c);
    return c.newPage();
  };

  it('the button lands on the provider’s room; a provider failure is shown on the match page', async () => {
    const recruiter = await newPage();
    const { email: recEmail } = await signUpInBrowser(recruiter, baseUrl, { role: 'recruiter' });
    await onboardRecruiterInBrowser(recruiter, { team: 'Hosted Co' });
    const user = await h.knex('users').whereRaw('lower(email) = lower(?)', [recEmail]).first();
    const { team_id: teamId } = await h.knex('team_members').where({ user_id: user.id }).first();
    const { liveEvents: events, jobs } = h.app.services.events;
    const event = await events.create(teamId, user.id, {
      slug: `hosted-${Date.now().toString(36)}`,
      company_name: 'Hosted Co',
      visibility: 'open_invite',
      interview_slots: 1,
    });
    await jobs.create(teamId, {
      live_event_id: event.id,
      title: 'Platform Engineer',
      essential_skills: ['TypeScript'],
      bonus_skills: [],
      experience_min: 0,
      salary_min: null,
      salary_max: null,
      location: null,
      remote_preference: null,
    });
    await events.transition(teamId, user.id, event.id, 'goLive');

    const seeker = await newPage();
    await signUpInBrowser(seeker, baseUrl, { role: 'seeker', next: `/events/${event.slug}` });
    await onboardSeekerInBrowser(seeker);
    await seeker.getByRole('button', { name: 'Join the queue for Hosted Co' }).click();
    const match = await eventually(async () => h.knex('matches').where({ status: 'matched' }).first(), 30_000);
    for (const p of [seeker, recruiter]) {
      await p.goto(`${baseUrl}/matches/${match.id}`);
      await p.getByRole('button', { name: 'Accept match' }).click();
    }
    await seeker.goto(`${baseUrl}/matches/${match.id}`);
    await seeker.getByRole('button', { name: 'Enter the interview room' }).waitFor();

    // The provider is down: the match page says so (503), nothing else happens.
    providerDown = true;
    await seeker.getByRole('button', { name: 'Enter the interview room' }).click();
    await seeker.locator('.error[role="alert"]').waitFor();
    expect(await seeker.locator('.error[role="alert"]').textContent()).toContain(
      'The video service could not open the room',
    );
    expect(new URL(seeker.url()).origin).toBe(baseUrl);
    await checkPage(seeker, 'hosted-01-provider-down');

    // Back up: the 303 goes to the provider's origin and the browser follows it.
    providerDown = false;
    await Promise.all([
      seeker.waitForURL(`${providerOrigin}/room/**`),
      seeker.getByRole('button', { name: 'Enter the interview room' }).click(),
    ]);
    expect(await seeker.locator('h1').textContent()).toBe('Hosted interview room');
    expect(issued.at(-1)).toMatchObject({ room: match.id, role: 'seeker' });
  });
});
