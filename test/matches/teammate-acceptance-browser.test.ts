import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually, type Harness, type TestUser } from '../helpers/harness';
import { checkPage, createWebHarness, launchBrowser } from '../helpers/browser';
import { startReceiver, startSmtp, type Receiver } from '../webhooks/helpers';
import { createJob, createLiveEvent, join, matchOf, matchesService } from './fixtures';
import { matchWorkflowId } from '#workflows/matches/contract';

/**
 * One interviewer per match (decision 0244): the match is offered to Margaret (round-robin at an
 * event with recruiter availability) and her teammate Grace accepts. From then on every surface
 * names Grace — the seeker's match page, the status lines of all three viewers, the room tiles on
 * both sides, the seeker's e-mail, the API Match (seeker's and recruiter's token) and the
 * match.accepted webhook — and Margaret's page says "Grace Hopper accepted", never "You accepted".
 * An accepter without a free interview slot is refused and the match stays offered to the team.
 */
describe('browser: a teammate accepts — the accepter is the interviewer everywhere', () => {
  let h: Harness;
  let baseUrl: string;
  let browser: Browser;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let rx: Receiver;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    smtp = await startSmtp();
    rx = await startReceiver();
    ({ h, baseUrl } = await createWebHarness({
      SMTP_URL: smtp.url,
      MATCHMAKER_INTERVAL_MS: '50',
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
    await smtp?.close();
    await rx?.close();
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
  /** A team of two at an event where only Margaret takes new offers; Grace may still accept. */
  const fair = async (o: { margaretCapacity: number; graceCapacity: number; slots: number }) => {
    const margaret = await h.recruiter();
    const grace = await h.recruiter({ teamId: margaret.teamId! });
    await named(margaret, 'Margaret Hamilton');
    await named(grace, 'Grace Hopper');
    const event = await createLiveEvent(h, { teamId: margaret.teamId!, slots: o.slots });
    const availability = h.app.services.deps.repos.availability;
    await availability.upsert(event.id, margaret.user.id, { available: true, capacity: o.margaretCapacity });
    await availability.upsert(event.id, grace.user.id, { available: false, capacity: o.graceCapacity });
    const job = await createJob(h, { event, title: 'Compiler Engineer' });
    return { margaret, grace, event, job };
  };
  const statusLine = async (p: Page, matchId: string) => {
    await p.goto(`${baseUrl}/matches/${matchId}`);
    return ((await p.locator('.status-box [data-status-line]').textContent()) ?? '').trim();
  };
  const apiMatch = async (u: TestUser, matchId: string) => {
    const r = await h.call({ method: 'GET', url: '/api/v1/matches', token: u.token });
    expect(r.statusCode).toBe(200);
    return r
      .json<{ matches: Array<{ id: string; recruiter_user_id: string | null; recruiter_name: string | null }> }>()
      .matches.find((m) => m.id === matchId)!;
  };
  const decoded = (raw: string) =>
    raw.replace(/=\r\n/g, '').replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
  const mailTo = (to: string, subject: RegExp) =>
    smtp.mails.find((m) => m.to.includes(to) && subject.test(decoded(m.raw)));

  it(
    'offered to Margaret, accepted by Grace: pages, status lines, room tiles, e-mail, API and ' + 'webhook name Grace',
    async () => {
      const { margaret, grace, event } = await fair({ margaretCapacity: 1, graceCapacity: 1, slots: 2 });
      const sub = await h.call({
        method: 'POST',
        url: '/api/v1/webhooks',
        token: margaret.token,
        payload: { target_url: rx.url('/team'), events: ['match.accepted'] },
      });
      expect(sub.statusCode).toBe(201);
      const seeker = await h.seeker();
      await h.knex('profiles').where({ user_id: seeker.user.id }).update({ full_name: 'Ada Lovelace' });
      await join(h, seeker, event.slug);
      const match = await matchOf(h, seeker.user.id);
      expect(match.recruiter_user_id).toBe(margaret.user.id);
      const company = `Company ${event.slug}`;

      const [s, m, g] = [await pageAs(seeker), await pageAs(margaret), await pageAs(grace)];

      // Before anyone accepts: offered to the team, Margaret suggested.
      expect(await statusLine(s, match.id)).toBe('Waiting for you and a recruiter.');
      expect(await s.locator('[data-interviewer]').textContent()).toBe(
        `A recruiter of ${company} will meet you: the match is offered to Margaret Hamilton; whoever of the team accepts interviews you.`,
      );
      expect(await s.locator('body').textContent()).not.toContain('You would meet');
      await checkPage(s, 'teammate-01-seeker-offered');
      expect(await statusLine(m, match.id)).toBe('Waiting for you and the candidate.');
      expect(await statusLine(g, match.id)).toBe(
        'Waiting for the candidate and a recruiter (offered to Margaret Hamilton).',
      );
      await checkPage(g, 'teammate-02-teammate-offered');
      expect(await apiMatch(seeker, match.id)).toMatchObject({
        recruiter_user_id: margaret.user.id,
        recruiter_name: 'Margaret Hamilton',
      });
      const offeredMail = await eventually(async () => mailTo(seeker.user.email, /Subject: You have a match/), 15_000);
      expect(decoded(offeredMail.raw)).toContain('It is offered to Margaret Hamilton; whoever of the team accepts');
      const describe = await h.temporal.workflow.getHandle(matchWorkflowId(match.id)).describe();
      expect(await describe.staticSummary()).toContain('offered to Margaret Hamilton');

      // Grace accepts first: she is the match's recruiter from now on.
      await g.getByRole('button', { name: 'Accept match' }).click();
      await g.locator('[data-acceptance]').waitFor();
      expect(await g.locator('[data-acceptance]').textContent()).toContain('You accepted');
      expect(await statusLine(g, match.id)).toBe('You accepted. Waiting for the candidate.');
      expect(await statusLine(m, match.id)).toBe('Grace Hopper accepted. Waiting for the candidate.');
      const margaretNotice = (await m.locator('[data-acceptance]').textContent()) ?? '';
      expect(margaretNotice).toContain('Grace Hopper accepted');
      expect(margaretNotice).not.toContain('You accepted');
      expect(margaretNotice).not.toContain('<time');
      expect(await m.getByRole('button', { name: 'Accept match' }).count()).toBe(0);
      await checkPage(m, 'teammate-03-offered-recruiter-after-colleague-accepted');
      expect(await statusLine(s, match.id)).toBe('Grace Hopper accepted. Waiting for you.');
      expect(await s.locator('[data-interviewer]').textContent()).toBe(
        `You will meet Grace Hopper, a recruiter of ${company}.`,
      );
      await checkPage(s, 'teammate-04-seeker-after-recruiter-accepted');
      for (const u of [seeker, margaret, grace])
        expect(await apiMatch(u, match.id)).toMatchObject({
          recruiter_user_id: grace.user.id,
          recruiter_name: 'Grace Hopper',
        });
      // The slot counts against Grace now, not Margaret.
      const [graceRow, margaretRow] = [
        await h.app.services.deps.repos.availability.findOne(event.id, grace.user.id),
        await h.app.services.deps.repos.availability.findOne(event.id, margaret.user.id),
      ];
      expect([graceRow!.active, margaretRow!.active]).toEqual([1, 0]);

      // The seeker accepts: both accepted, Grace interviews.
      await s.getByRole('button', { name: 'Accept match' }).click();
      await s.getByRole('button', { name: 'Enter the interview room' }).waitFor();
      expect(await statusLine(s, match.id)).toBe('Both accepted: you meet Grace Hopper in the interview room.');
      await checkPage(s, 'teammate-05-seeker-accepted');
      expect(await statusLine(g, match.id)).toBe('Both accepted: the interview room is open.');
      expect(await statusLine(m, match.id)).toBe('Both accepted: Grace Hopper interviews the candidate.');
      expect(await m.getByRole('button', { name: 'Enter the interview room' }).count()).toBe(0);
      expect(await m.locator('[data-interviewer]').textContent()).toContain('Grace Hopper accepted for the team');
      await checkPage(m, 'teammate-06-offered-recruiter-accepted');
      const openMail = await eventually(async () => mailTo(seeker.user.email, /Subject: Interview room open/), 15_000);
      expect(decoded(openMail.raw)).toContain(`You meet Grace Hopper of ${company}.`);
      const hook = await eventually(async () => rx.received.find((r) => r.json.type === 'match.accepted'), 15_000);
      expect(hook.json.data).toMatchObject({ match_id: match.id, recruiter_user_id: grace.user.id });

      // The room: the seeker's tile names Grace; Grace's names Ada; Margaret has no way in.
      await s.getByRole('button', { name: 'Enter the interview room' }).click();
      await s.waitForURL(new RegExp(`/rooms/${match.id}\\?t=`));
      expect(await s.locator('figure:has(#remote-video) figcaption').textContent()).toContain(
        'Grace Hopper (recruiter)',
      );
      await checkPage(s, 'teammate-07-room-seeker');
      await g.goto(`${baseUrl}/matches/${match.id}`);
      await g.getByRole('button', { name: 'Enter the interview room' }).click();
      await g.waitForURL(new RegExp(`/rooms/${match.id}\\?t=`));
      expect(await g.locator('figure:has(#remote-video) figcaption').textContent()).toContain(
        'Ada Lovelace (candidate)',
      );
      expect(await g.locator('figure:has(#local-video) figcaption').textContent()).toContain('You (Grace Hopper)');
      const refused = await h.call({
        method: 'GET',
        url: `/api/v1/matches/${match.id}/interview-room-url`,
        token: margaret.token,
      });
      expect(refused.statusCode).toBe(403);
      expect(refused.json().code).toBe('MATCH_NOT_YOUR_INTERVIEW');

      // The team's lists say who: Margaret's match list.
      await m.goto(`${baseUrl}/matches`);
      expect(await m.locator(`#matches-list`).textContent()).toContain('Grace Hopper interviews the candidate');
      await checkPage(m, 'teammate-08-matches-list');
    },
    180_000,
  );

  it('an accepter without a free interview slot is refused; the match stays offered to the team', async () => {
    const { margaret, grace, event } = await fair({ margaretCapacity: 2, graceCapacity: 1, slots: 2 });
    const [one, two] = [await h.seeker(), await h.seeker()];
    await join(h, one, event.slug);
    await join(h, two, event.slug);
    const [m1, m2] = [await matchOf(h, one.user.id), await matchOf(h, two.user.id)];
    expect([m1.recruiter_user_id, m2.recruiter_user_id]).toEqual([margaret.user.id, margaret.user.id]);
    const svc = matchesService(h);
    await svc.accept({ userId: grace.user.id, matchId: m1.id });
    // Grace's one slot is taken by the first: the second is refused, in words on the page too.
    await expect(svc.accept({ userId: grace.user.id, matchId: m2.id })).rejects.toMatchObject({
      status: 409,
      code: 'MATCH_RECRUITER_AT_CAPACITY',
    });
    const still = await h.knex('matches').where({ id: m2.id }).first();
    expect(still).toMatchObject({
      status: 'matched',
      recruiter_accepted_at: null,
      recruiter_user_id: margaret.user.id,
    });
    const g = await pageAs(grace);
    await g.goto(`${baseUrl}/matches/${m2.id}`);
    await g.getByRole('button', { name: 'Accept match' }).click();
    expect(await g.locator('.error').textContent()).toContain('You have no free interview slot at this event');
    await checkPage(g, 'teammate-09-accept-refused-at-capacity');
    // Margaret, to whom it is offered, still can.
    await svc.accept({ userId: margaret.user.id, matchId: m2.id });
    expect((await h.knex('matches').where({ id: m2.id }).first()).recruiter_accepted_by).toBe(margaret.user.id);
  });

  it('once Grace accepted, only she declines for the team; before that any teammate may', async () => {
    const { margaret, grace, event } = await fair({ margaretCapacity: 2, graceCapacity: 1, slots: 3 });
    const [one, two] = [await h.seeker(), await h.seeker()];
    await join(h, one, event.slug);
    await join(h, two, event.slug);
    const [m1, m2] = [await matchOf(h, one.user.id), await matchOf(h, two.user.id)];
    expect([m1.recruiter_user_id, m2.recruiter_user_id]).toEqual([margaret.user.id, margaret.user.id]);
    const decline = (u: TestUser, matchId: string) =>
      h.call({
        method: 'POST',
        url: `/api/v1/matches/${matchId}/decline`,
        token: u.token,
        payload: { reason: 'Not the right fit for us' },
      });

    // Nobody of the team accepted yet: Grace may decline a match offered to Margaret.
    const early = await decline(grace, m2.id);
    expect(early.statusCode).toBe(200);
    expect(early.json().match).toMatchObject({ status: 'declined', declined_by_role: 'recruiter' });

    // Grace accepts m1: from now on the team's decision is hers.
    await matchesService(h).accept({ userId: grace.user.id, matchId: m1.id });
    const m = await pageAs(margaret);
    await m.goto(`${baseUrl}/matches/${m1.id}`);
    expect(await m.locator('[data-decides]').textContent()).toBe(
      'Grace Hopper accepted for the team and decides for it: only they can decline this match.',
    );
    expect(await m.getByRole('button', { name: 'Decline match' }).count()).toBe(0);
    expect(await m.locator(`form[action="/matches/${m1.id}/decline"]`).count()).toBe(0);
    await checkPage(m, 'teammate-10-teammate-cannot-decline');
    // A page opened before Grace accepted still posts the form: refused in words, nothing changes.
    const stale = await m.request.post(`${baseUrl}/matches/${m1.id}/decline`, {
      form: { reason: 'Not for us', _csrf: (await m.locator('meta[name="csrf-token"]').getAttribute('content'))! },
      headers: { origin: baseUrl },
    });
    expect(stale.status()).toBe(403);
    expect(await stale.text()).toContain('only they can decline it');

    // Margaret's token is refused with the envelope; nothing changes.
    const refused = await decline(margaret, m1.id);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ code: 'MATCH_NOT_YOUR_INTERVIEW', error: expect.any(String) });
    expect(await h.knex('matches').where({ id: m1.id }).first()).toMatchObject({
      status: 'matched',
      declined_at: null,
      recruiter_accepted_by: grace.user.id,
    });

    // Grace herself still sees Decline and may use it.
    const g = await pageAs(grace);
    await g.goto(`${baseUrl}/matches/${m1.id}`);
    expect(await g.getByRole('button', { name: 'Decline match' }).count()).toBe(1);
    expect(await g.locator('[data-decides]').count()).toBe(0);
    const own = await decline(grace, m1.id);
    expect(own.statusCode).toBe(200);
    expect(own.json().match).toMatchObject({ status: 'declined' });
  });
});
