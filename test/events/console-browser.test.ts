import { confirmSignUpInBrowser } from '../helpers/signup';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { openOutboxBody } from '#lib/sealed';
import { eventually, type Harness } from '../helpers/harness';
import {
  createWebHarness,
  launchBrowser,
  onboardRecruiterInBrowser,
  onboardSeekerInBrowser,
  screenshot,
  signUpInBrowser,
  uniqueEmail,
} from '../helpers/browser';

/** The recruiter console in a real browser: events, jobs, go-live/pause/end, queue, matches, notes, invites. */
describe('browser: recruiter console', () => {
  let h: Harness;
  let baseUrl: string;
  let browser: Browser;
  const contexts: BrowserContext[] = [];
  beforeAll(async () => {
    ({ h, baseUrl } = await createWebHarness({
      MATCHMAKER_INTERVAL_MS: '100',
      QUEUE_ENTRY_TTL_MS: '600000',
      MATCH_ACCEPT_WINDOW_MS: '600000',
    }));
    browser = await launchBrowser();
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await h?.close();
  });
  const newPage = async (): Promise<Page> => {
    const c = await browser.newContext({ viewport: { width: 1200, height: 900 } });
    contexts.push(c);
    return c.newPage();
  };

  it(
    'creates an event and a job with server-side validation, goes live, sees the queue, ' +
      'accepts the match, rates the candidate, pauses and ends',
    async () => {
      const rec = await newPage();
      await signUpInBrowser(rec, baseUrl, { role: 'recruiter', name: 'Rita Recruiter' });
      await onboardRecruiterInBrowser(rec, { team: 'Globex' });
      expect(new URL(rec.url()).pathname).toBe('/recruiter');

      // Event: the API's schema refuses a bad slug, next to the field.
      await rec.getByRole('link', { name: 'Create an event' }).click();
      await rec.getByLabel('Address (slug)').fill('Not A Slug!');
      await rec.getByLabel('Company name').fill('Globex Corporation');
      await rec.getByLabel('Headline').fill('Engineers wanted, today');
      await rec.getByRole('button', { name: 'Create event' }).click();
      await rec.locator('#e-slug').waitFor();
      expect(await rec.locator('#e-slug').textContent()).toMatch(/lower-case/i);
      const slug = `globex-${Date.now().toString(36)}`;
      await rec.getByLabel('Address (slug)').fill(slug);
      await rec.getByLabel('Interview slots').fill('2');
      await Promise.all([
        rec.waitForURL(/\/recruiter\/events\/[0-9a-f-]{36}/),
        rec.getByRole('button', { name: 'Create event' }).click(),
      ]);
      const eventId = new URL(rec.url()).pathname.split('/').pop()!;
      expect(await rec.locator('[data-event-status]').getAttribute('data-event-status')).toBe('draft');

      // Job: salary range checked by the same schema as POST /jobs.
      await rec.getByText('Add a job').click();
      await rec.getByLabel('Job title').fill('Platform Engineer');
      await rec.getByLabel('Essential skills').fill('TypeScript, PostgreSQL');
      await rec.getByLabel('Salary from').fill('90000');
      await rec.getByLabel('Salary to').fill('80000');
      await rec.getByRole('button', { name: 'Add job' }).click();
      await rec.locator('#e-salary_min').waitFor();
      await rec.getByLabel('Salary to').fill('120000');
      await rec.getByLabel('Remote work').selectOption('hybrid');
      await rec.getByRole('button', { name: 'Add job' }).click();
      await rec.locator('.notice:has-text("job was saved")').waitFor();
      expect(await rec.locator('table:has-text("Platform Engineer")').count()).toBe(1);

      // Go live: the same Update as POST /live-events/{id}/go-live; the workflow projects the status.
      await rec.getByRole('button', { name: 'Go live' }).click();
      await rec.locator('[data-event-status="live"]').waitFor();
      expect((await h.knex('live_events').where({ id: eventId }).first()).status).toBe('live');
      const desc = await h.temporal.workflow.getHandle(`live-event:${eventId}`).describe();
      expect(desc.status.name).toBe('RUNNING');
      await screenshot(rec, '11-console-event');

      // Interview slots (the event-wide cap): one for now, so the waiting list is visible before the match.
      await rec.getByRole('spinbutton', { name: 'Interview slots' }).first().fill('1');
      await rec.getByRole('button', { name: 'Update interview slots' }).click();
      await rec.locator('.notice').waitFor();
      expect((await h.knex('live_events').where({ id: eventId }).first()).interview_slots).toBe(1);

      // The console's overview stays open while the match is made: its events table is live too.
      await rec.goto(`${baseUrl}/recruiter`);
      const made = rec.locator(`#events-section tr:has(a[href="/recruiter/events/${eventId}"]) [data-matches-made]`);
      expect(await made.textContent()).toBe('0');
      expect(await made.getAttribute('data-label')).toBe('Matches made');

      // A seeker joins from the public event page and gets matched.
      const seeker = await newPage();
      await signUpInBrowser(seeker, baseUrl, { role: 'seeker', name: 'Casey Candidate', next: `/events/${slug}` });
      await onboardSeekerInBrowser(seeker, { skills: 'TypeScript, PostgreSQL, Kubernetes' });
      await seeker.getByRole('button', { name: 'Join the queue for Globex Corporation' }).click();
      await seeker.locator('#queue-status').waitFor();
      const seekerUser = await h.knex('users').where({ display_name: 'Casey Candidate' }).first();
      const match = await eventually(
        async () => h.knex('matches').where({ seeker_user_id: seekerUser.id }).first(),
        30_000,
      );

      // Without a reload: the match waits for acceptance and the event's card counts it (any status).
      await rec.locator(`#awaiting-section a[href="/matches/${match.id}"]`).waitFor({ timeout: 15_000 });
      await eventually(async () => ((await made.textContent()) === '1' ? true : null), 15_000);
      await screenshot(rec, '11b-console-match-waiting');

      // The console lists the match for acceptance; the recruiter accepts on the match page.
      await rec.goto(`${baseUrl}/recruiter`);
      await rec.locator(`a[href="/matches/${match.id}"]`).click();
      await rec.getByRole('button', { name: 'Accept match' }).click();
      await rec.locator('.notice:has-text("You accepted")').waitFor();
      expect((await h.knex('matches').where({ id: match.id }).first()).recruiter_accepted_at).not.toBeNull();

      // Candidates: notes and rating through the candidates service.
      await rec.goto(`${baseUrl}/recruiter/candidates`);
      await rec.getByRole('link', { name: 'Casey Candidate' }).click();
      await rec.getByRole('textbox', { name: 'Note' }).fill('Strong on PostgreSQL internals.');
      await rec.getByRole('combobox', { name: 'Rating' }).selectOption('4');
      await rec.getByRole('button', { name: 'Save note' }).click();
      await rec.locator('.notice:has-text("note was saved")').waitFor();
      const note = await h.knex('candidate_notes').where({ seeker_user_id: seekerUser.id }).first();
      expect(note).toMatchObject({ note: 'Strong on PostgreSQL internals.', rating: 4 });
      await screenshot(rec, '12-console-candidate');

      // A second seeker waits (the one slot is taken): the event page lists them.
      const waiter = await newPage();
      await signUpInBrowser(waiter, baseUrl, { role: 'seeker', name: 'Wendy Waiting', next: `/events/${slug}` });
      await onboardSeekerInBrowser(waiter);
      await waiter.getByRole('button', { name: 'Join the queue for Globex Corporation' }).click();
      await waiter.locator('#queue-status').waitFor();
      await rec.goto(`${baseUrl}/recruiter/events/${eventId}`);
      expect(await rec.locator('section:has(#waiting-h)').textContent()).toContain('Wendy Waiting');

      // Pause, then end: the waiting entry is drained (expired) by the liveEvent workflow.
      await rec.getByRole('button', { name: 'Pause' }).click();
      await rec.locator('[data-event-status="paused"]').waitFor();
      // Ending is destructive: the button only opens the confirmation.
      await rec.locator('summary', { hasText: 'End event' }).click();
      expect(await rec.locator('[data-event-status="live"], [data-event-status="paused"]').count()).toBe(1);
      await rec.getByRole('button', { name: 'Yes, end the event' }).click();
      await rec.locator('[data-event-status="ended"]').waitFor();
      const wendy = await h.knex('users').where({ display_name: 'Wendy Waiting' }).first();
      await eventually(
        async () => h.knex('queue_entries').where({ user_id: wendy.id, status: 'expired' }).first(),
        20_000,
      );
      // An illegal move is refused with the workflow's reason, not a stack trace.
      const res = await rec.request.post(`${baseUrl}/recruiter/events/${eventId}/transition`, {
        form: { transition: 'goLive', _csrf: (await rec.locator('meta[name="csrf-token"]').getAttribute('content'))! },
        headers: { origin: baseUrl },
      });
      expect(res.status()).toBe(409);
      expect(await res.text()).not.toMatch(/\.ts:\d+/);
    },
  );

  it('invites a colleague who joins the team from the e-mailed link', async () => {
    const owner = await newPage();
    await signUpInBrowser(owner, baseUrl, { role: 'recruiter' });
    await onboardRecruiterInBrowser(owner, { team: 'Initech' });
    const email = uniqueEmail('colleague');
    await owner.getByLabel('E-mail address').fill(email);
    await owner.getByRole('button', { name: 'Send invite' }).click();
    await owner.locator('.notice:has-text("Invite sent")').waitFor();
    const mail = await eventually(async () =>
      h.knex('email_outbox').where({ to_address: email, kind: 'team_invite' }).first(),
    );
    const link = /(http\S+\/invites\/inv_\S+)/.exec(openOutboxBody(mail.body, h.config.APP_SECRET!))![1];
    expect(link.startsWith(baseUrl)).toBe(true);

    const colleague = await newPage();
    await colleague.goto(link);
    expect(await colleague.locator('h1').textContent()).toBe('Join Initech');
    await colleague.getByRole('link', { name: 'Create a recruiter account' }).click();
    await colleague.getByLabel('Your name').fill('Colin Colleague');
    await colleague.getByLabel('E-mail address').fill(email);
    await colleague.getByLabel('Password').fill('another long password');
    await colleague.getByLabel('Recruiter').check();
    await Promise.all([
      colleague.waitForURL(/\/signup\/sent/),
      colleague.getByRole('button', { name: 'Create account' }).click(),
    ]);
    // The account is created from the e-mailed link (decision 0182), which leads back to the invite.
    await confirmSignUpInBrowser(colleague, h, email);
    expect(new URL(colleague.url()).pathname).toMatch(/^\/invites\//);
    await Promise.all([
      colleague.waitForURL(/\/onboarding/),
      colleague.getByRole('button', { name: 'Join Initech' }).click(),
    ]);
    expect(await colleague.locator('main').textContent()).toContain('You are a member of Initech');
    expect(await colleague.getByLabel('Team name').count()).toBe(0);
    await onboardRecruiterInBrowser(colleague);
    expect(new URL(colleague.url()).pathname).toBe('/recruiter');
    const user = await h.knex('users').whereRaw('lower(email) = lower(?)', [email]).first();
    const m = await h
      .knex('team_members as m')
      .join('teams as t', 't.id', 'm.team_id')
      .where('m.user_id', user.id)
      .first('t.name', 'm.role');
    expect(m).toEqual({ name: 'Initech', role: 'member' });
  });
});
