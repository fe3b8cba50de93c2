import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually, type Harness, type TestUser } from '../helpers/harness';
import { checkPage, createWebHarness, launchBrowser } from '../helpers/browser';
import { startSmtp } from '../webhooks/helpers';
import { createJob, createLiveEvent, matchesService } from './fixtures';

/**
 * The loop walked as people would when a teammate takes the interview (decisions 0244, 0249): a
 * seeker joins from the event page, the match is offered to Margaret, her teammate Grace accepts,
 * the seeker accepts, Grace and the seeker meet in the room, Grace ends the interview and writes
 * the report card. Margaret's pages say who interviews and that she is not needed; the report card
 * is Grace's alone (Margaret reads it; her attempt is refused on the page and with the envelope);
 * the "advance" e-mail and contact card say "You chose" to the one who did.
 */
describe('browser: a teammate interviews — the whole loop reads true for all three people', () => {
  let h: Harness;
  let baseUrl: string;
  let browser: Browser;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    smtp = await startSmtp();
    ({ h, baseUrl } = await createWebHarness({
      SMTP_URL: smtp.url,
      MATCHMAKER_INTERVAL_MS: '50',
      QUEUE_ENTRY_TTL_MS: '600000',
      MATCH_ACCEPT_WINDOW_MS: '600000',
      INTERVIEW_LENGTH_MS: '600000',
    }));
    browser = await launchBrowser({ media: true });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await h?.close();
    await smtp?.close();
  });

  const pageAs = async (u: TestUser): Promise<Page> => {
    const c = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(c);
    const token = (await h.app.services.accounts.sessions.create(u.user.id, { ip: '127.0.0.1', userAgent: 'test' }))
      .token;
    await c.addCookies([{ name: 'jf_session', value: token, url: baseUrl }]);
    return c.newPage();
  };
  const named = async (u: TestUser, name: string) => {
    await h.knex('users').where({ id: u.user.id }).update({ display_name: name });
    u.user.display_name = name;
  };
  const decoded = (raw: string) =>
    raw.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const mailTo = (to: string, subject: RegExp) =>
    smtp.mails.find((m) => m.to.includes(to) && subject.test(decoded(m.raw)));
  const text = async (p: Page, selector: string) => ((await p.locator(selector).first().textContent()) ?? '').trim();

  it('offered to Margaret, interviewed by Grace: match pages, room, report card and e-mails agree', async () => {
    const margaret = await h.recruiter();
    const grace = await h.recruiter({ teamId: margaret.teamId! });
    await named(margaret, 'Margaret Hamilton');
    await named(grace, 'Grace Hopper');
    const event = await createLiveEvent(h, { teamId: margaret.teamId!, slots: 2, visibility: 'open_invite' });
    await h.knex('live_events').where({ id: event.id }).update({ headline: 'Compilers day' });
    const availability = h.app.services.deps.repos.availability;
    await availability.upsert(event.id, margaret.user.id, { available: true, capacity: 1 });
    await availability.upsert(event.id, grace.user.id, { available: false, capacity: 1 });
    await createJob(h, { event, title: 'Compiler Engineer' });
    const seeker = await h.seeker();
    await h.knex('profiles').where({ user_id: seeker.user.id }).update({ full_name: 'Ada Lovelace' });
    await named(seeker, 'Ada Lovelace');
    const company = `Company ${event.slug}`;
    const [s, m, g] = [await pageAs(seeker), await pageAs(margaret), await pageAs(grace)];

    // The seeker joins from the event page; the match is offered to Margaret.
    await s.goto(`${baseUrl}/events/${event.slug}`);
    await s.getByRole('button', { name: `Join the queue for ${company}` }).click();
    const match = await eventually(
      async () => h.knex('matches').where({ seeker_user_id: seeker.user.id, status: 'matched' }).first(),
      30_000,
      20,
    );
    expect(match.recruiter_user_id).toBe(margaret.user.id);

    // Grace accepts from the match page; Margaret's page names her and says the candidate has until … to accept.
    await g.goto(`${baseUrl}/matches/${match.id}`);
    await g.getByRole('button', { name: 'Accept match' }).click();
    await g.locator('[data-acceptance]').waitFor();
    await m.goto(`${baseUrl}/matches/${match.id}`);
    expect(await text(m, '#decide-h + p')).toMatch(/^The candidate has until .* to accept\.$/);
    await checkPage(m, 'teamloop-01-margaret-grace-accepted');

    // The seeker accepts: Margaret is told Grace interviews and she is not needed; no way in for her.
    await s.goto(`${baseUrl}/matches/${match.id}`);
    await s.getByRole('button', { name: 'Accept match' }).click();
    await s.getByRole('button', { name: 'Enter the interview room' }).waitFor();
    await m.goto(`${baseUrl}/matches/${match.id}`);
    const panel = await text(m, 'section:has(#room-h)');
    expect(await text(m, '#room-h')).toBe('Grace Hopper interviews the candidate');
    expect(panel).toContain('you are not needed in the room');
    expect(panel).toContain('The interview clock starts when Grace Hopper and the candidate are both in the room.');
    expect(panel).not.toContain('when you are both in the room');
    expect(await text(m, '#arrivals')).toMatch(/^Grace Hopper has not come to the room yet; the candidate has not/);
    expect(await m.getByRole('button', { name: 'Enter the interview room' }).count()).toBe(0);
    await checkPage(m, 'teamloop-02-margaret-accepted');
    const margaretOpenMail = await eventually(
      async () => mailTo(margaret.user.email, /Subject: Interview room open/),
      15_000,
    );
    expect(decoded(margaretOpenMail.raw)).toContain('Grace Hopper interviews the candidate; you are not needed');

    // Grace and the seeker meet in the room; each tile names the other.
    await g.goto(`${baseUrl}/matches/${match.id}`);
    for (const p of [s, g]) {
      await Promise.all([
        p.waitForURL(new RegExp(`/rooms/${match.id}\\?t=`)),
        p.getByRole('button', { name: 'Enter the interview room' }).click(),
      ]);
      await p.locator('#precheck[data-precheck-state="ready"]').waitFor({ timeout: 15_000 });
      await p.getByRole('button', { name: 'Join the interview' }).click();
    }
    for (const p of [s, g]) await p.locator('#room[data-connection-state="connected"]').waitFor({ timeout: 30_000 });
    expect(await text(s, 'figure:has(#remote-video) figcaption')).toContain('Grace Hopper (recruiter)');
    expect(await text(g, 'figure:has(#remote-video) figcaption')).toContain('Ada Lovelace (candidate)');
    await checkPage(g, 'teamloop-03-room-grace');
    // Margaret's page while they talk: the interview is on, between the two of them.
    await eventually(
      async () => (await h.knex('matches').where({ id: match.id }).first()).interview_started_at,
      10_000,
    );
    await m.goto(`${baseUrl}/matches/${match.id}`);
    expect(await text(m, 'section:has(#room-h)')).toMatch(/The interview started .* and ends /);
    await checkPage(m, 'teamloop-04-margaret-interview-on');

    // Grace ends the interview; she writes the report card, Margaret reads that it is Grace's.
    await g.locator('summary', { hasText: 'End the interview' }).click();
    await Promise.all([
      g.waitForURL(new RegExp(`/matches/${match.id}`)),
      g.getByRole('button', { name: 'Yes, end the interview for both' }).click(),
    ]);
    await g.locator('#report-card form').waitFor({ timeout: 15_000 });
    await m.goto(`${baseUrl}/matches/${match.id}`);
    expect(await text(m, '[data-status-line]')).toBe('Interview with Grace Hopper completed.');
    expect(await m.locator('#report-card form').count()).toBe(0);
    expect(await text(m, '#report-card')).toContain(
      'Grace Hopper interviewed the candidate and writes the report card',
    );
    await checkPage(m, 'teamloop-05-margaret-report-card-grace');

    // Margaret's attempt anyway (a form from elsewhere, a script): refused on the page and as an envelope.
    const csrf = await m.locator('input[name="_csrf"]').first().inputValue();
    const form = { _csrf: csrf, fit: '5', communication: '5', technical: '5', outcome: 'pass', notes: '' };
    const json = await m.request.post(`${baseUrl}/matches/${match.id}/report`, {
      form,
      headers: { accept: 'application/json', origin: baseUrl },
    });
    expect(json.status()).toBe(403);
    expect(await json.json()).toMatchObject({ code: 'MATCH_NOT_YOUR_INTERVIEW', error: expect.any(String) });
    // A stale or crafted form posted from Margaret's own page (the browser's session and token).
    await m.evaluate(`(() => {
      const f = document.createElement('form');
      f.method = 'post';
      f.action = ${JSON.stringify(`/matches/${match.id}/report`)};
      for (const [k, v] of Object.entries(${JSON.stringify(form)})) {
        const i = document.createElement('input');
        i.type = 'hidden'; i.name = k; i.value = v; f.append(i);
      }
      document.body.append(f);
      f.submit();
    })()`);
    await m.locator('.error[role="alert"]').waitFor();
    expect(await text(m, '.error[role="alert"]')).toContain('enter the room and write the report card');
    await expect(
      matchesService(h).submitReport({
        userId: margaret.user.id,
        matchId: match.id,
        report: { fit: 5, communication: 5, technical: 5, outcome: 'pass', notes: '' },
      }),
    ).rejects.toMatchObject({ status: 403, code: 'MATCH_NOT_YOUR_INTERVIEW' });
    expect(await h.knex('interview_reports').where({ match_id: match.id }).first()).toBeUndefined();

    // Grace advances the candidate: "You chose" is true for her; Margaret reads Grace's choice.
    for (const n of ['fit', 'communication', 'technical'])
      await g.locator(`input[name="${n}"][value="4"]`).check({ force: true });
    await g.locator('input[name="outcome"][value="advance"]').check({ force: true });
    await g.getByRole('button', { name: 'Save report card' }).click();
    await g.locator('#contact-details').waitFor();
    expect(await text(g, '#contact-details')).toContain('You chose to advance this candidate.');
    await checkPage(g, 'teamloop-06-grace-report-saved');
    const advanced = await eventually(
      async () => mailTo(grace.user.email, /Subject: Contact details: Ada Lovelace/),
      15_000,
    );
    expect(decoded(advanced.raw)).toContain('You chose to advance Ada Lovelace');
    const seekerMail = await eventually(async () => mailTo(seeker.user.email, /Subject: Next step for/), 15_000);
    expect(decoded(seekerMail.raw)).toContain(`Contact: Grace Hopper <${grace.user.email}>`);
    expect(mailTo(margaret.user.email, /Subject: Contact details/)).toBeUndefined();
    await m.goto(`${baseUrl}/matches/${match.id}`);
    expect(await text(m, '#report-card')).toMatch(/Grace Hopper saved the report card .*Advance/);
    expect(await text(m, '#contact-details')).toContain('Grace Hopper chose to advance this candidate');
    expect(await text(m, '#contact-details')).not.toContain('You chose');
    await checkPage(m, 'teamloop-07-margaret-advanced');
    await s.goto(`${baseUrl}/matches/${match.id}`);
    expect(await text(s, '#contact-details')).toContain('Grace Hopper');
    expect(await text(s, '[data-status-line]')).toBe('Interview with Grace Hopper completed.');
    await checkPage(s, 'teamloop-08-seeker-contacts');

    // The lists: events by name; the seeker's, Margaret's and the console.
    for (const [p, who] of [
      [s, 'seeker'],
      [m, 'margaret'],
    ] as const) {
      await p.goto(`${baseUrl}/matches`);
      expect(await text(p, '#matches-list')).toContain(`${company}: Compilers day`);
      await checkPage(p, `teamloop-09-matches-${who}`);
    }
    await m.goto(`${baseUrl}/recruiter`);
    await checkPage(m, 'teamloop-10-console-margaret');
  }, 240_000);
});
