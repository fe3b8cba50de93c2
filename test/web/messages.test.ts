import { createHarness, type Harness, type TestUser } from '../helpers/harness';
import { createJob, createLiveEvent, join, matchOf, matchesService } from '../matches/fixtures';
import { WebClient } from '../helpers/web-client';
import { issueMessage, RAW_TEXT, salaryRange, scoreDetailWords } from '#apps/api/src/web/messages';

/**
 * The web message catalogue (apps/api/src/web/messages.ts, decision 0170): bad input on every web
 * form answers with sentences that name the field in words — never the validator's own text
 * ("Too small: expected number to be >=0"), its codes or identifiers (anything with an underscore).
 */
describe('web message catalogue: every form speaks in sentences', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      env: {
        MATCHMAKER_INTERVAL_MS: '50',
        QUEUE_ENTRY_TTL_MS: '600000',
        MATCH_ACCEPT_WINDOW_MS: '600000',
        INTERVIEW_LENGTH_MS: '600000',
      },
    });
  });
  afterAll(async () => h?.close());

  const as = async (u: TestUser | null) => {
    const c = new WebClient(h.app);
    if (u)
      c.cookies.set(
        'jf_session',
        (await h.app.services.accounts.sessions.create(u.user.id, { ip: null, userAgent: null })).token,
      );
    return c;
  };
  const strip = (s: string) =>
    s
      .replace(/<[^>]+>/g, ' ')
      .replace(/&[a-z#0-9]+;/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  /** Every error a person reads on the answer: the summary, the messages by the fields, alerts. */
  const errorTexts = (body: string): string[] => {
    const out: string[] = [];
    for (const m of body.matchAll(/<div class="error-summary"[^>]*>([\s\S]*?)<\/div>/g))
      out.push(strip(m[1]).replace(/^There is a problem /, ''));
    for (const m of body.matchAll(/<p class="error"[^>]*>([\s\S]*?)<\/p>/g))
      out.push(strip(m[1]).replace(/^Error: /, ''));
    return out.filter(Boolean);
  };

  const cases: Array<{
    form: string;
    who: 'anon' | 'seeker' | 'fresh' | 'recruiter' | 'freshRecruiter';
    page: string;
    action: string;
    body: Record<string, string | string[]>;
    expect?: RegExp;
  }> = [];

  it('answers bad input on each web form with human sentences, field names in words', async () => {
    const seeker = await h.seeker();
    const fresh = await h.seeker({ onboarded: false });
    const rec = await h.recruiter();
    const freshRec = await h.recruiter();
    await h.knex('profiles').where({ user_id: freshRec.user.id }).delete();
    const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 1, status: 'draft' });
    const live = await createLiveEvent(h, { teamId: rec.teamId!, slots: 1 });
    const job = await createJob(h, { event: live });
    const matched = await h.seeker();
    await join(h, matched, live.slug);
    const match = await matchOf(h, matched.user.id);
    await matchesService(h).accept({ userId: matched.user.id, matchId: match.id });
    await matchesService(h).accept({ userId: rec.user.id, matchId: match.id });
    await matchesService(h).completeInterview({ userId: rec.user.id, matchId: match.id });
    await matchOf(h, matched.user.id, { status: 'completed' });
    const declinable = await createLiveEvent(h, { teamId: (await h.recruiter()).teamId!, slots: 1 });
    await createJob(h, { event: declinable });
    const decliner = await h.seeker();
    await join(h, decliner, declinable.slug);
    const toDecline = await matchOf(h, decliner.user.id);

    cases.push(
      {
        form: 'sign-up',
        who: 'anon',
        page: '/signup',
        action: '/signup',
        body: { display_name: '', email: 'not-an-address', password: 'short', role: 'astronaut' },
        expect: /Password must be at least 10 characters/,
      },
      { form: 'sign-in', who: 'anon', page: '/login', action: '/login', body: { email: '', password: '' } },
      {
        form: 'onboarding (seeker)',
        who: 'fresh',
        page: '/onboarding',
        action: '/onboarding',
        body: {
          full_name: '',
          title: '',
          skills: '',
          experience_years: '-3',
          location: '',
          remote_preference: 'sometimes',
          salary_expectation: '-5',
        },
        expect: /Years of experience must be 0 or more/,
      },
      {
        form: 'onboarding (recruiter)',
        who: 'freshRecruiter',
        page: '/onboarding',
        action: '/onboarding',
        body: { full_name: '', title: '', team_name: '' },
      },
      {
        form: 'profile',
        who: 'seeker',
        page: '/account/profile',
        action: '/account/profile',
        body: {
          full_name: 'A',
          title: 'T',
          skills: 'x',
          experience_years: '75',
          location: '',
          remote_preference: 'hybrid',
          salary_expectation: 'lots',
        },
        expect: /Years of experience must be 60 or less/,
      },
      {
        form: 'API token',
        who: 'seeker',
        page: '/account/api-tokens',
        action: '/account/api-tokens',
        body: { name: '', expires_in_days: '9999' },
      },
      {
        form: 'webhook',
        who: 'seeker',
        page: '/account/webhooks',
        action: '/account/webhooks',
        body: { target_url: 'ftp://x', description: 'x'.repeat(600) },
      },
      {
        form: 'new event',
        who: 'recruiter',
        page: '/recruiter/events/new',
        action: '/recruiter/events',
        body: {
          slug: 'No Spaces!',
          company_name: '',
          interview_slots: '0',
          logo_url: 'nope',
          visibility: 'secret',
          accent_color: 'red',
          planned_start_at: 'tomorrow',
        },
        expect: /Interview slots must be 1 or more/,
      },
      {
        form: 'edit event',
        who: 'recruiter',
        page: `/recruiter/events/${event.id}`,
        action: `/recruiter/events/${event.id}`,
        body: {
          slug: event.slug,
          original_slug: event.slug,
          company_name: 'C',
          interview_slots: '1000',
          visibility: 'private',
        },
      },
      {
        form: 'event slots',
        who: 'recruiter',
        page: `/recruiter/events/${live.id}`,
        action: `/recruiter/events/${live.id}/slots`,
        body: { interview_slots: '-1' },
      },
      {
        form: 'new job',
        who: 'recruiter',
        page: `/recruiter/events/${live.id}`,
        action: `/recruiter/events/${live.id}/jobs`,
        body: {
          title: '',
          essential_skills: '',
          salary_min: '-1',
          salary_max: '10',
          experience_min: 'many',
          remote_preference: 'fully_remote',
        },
        expect: /Minimum salary must be 0 or more/,
      },
      {
        form: 'edit job',
        who: 'recruiter',
        page: `/recruiter/jobs/${job.id}`,
        action: `/recruiter/jobs/${job.id}`,
        body: { title: 'Job', essential_skills: 'TS', salary_min: '900', salary_max: '100', experience_min: '1' },
        expect: /Minimum salary must be less than or equal to maximum salary/,
      },
      {
        form: 'team invite',
        who: 'recruiter',
        page: '/recruiter',
        action: '/recruiter/invites',
        body: { email: 'nobody', role: 'emperor' },
      },
      {
        form: 'availability',
        who: 'recruiter',
        page: `/recruiter/events/${live.id}`,
        action: `/recruiter/events/${live.id}/availability`,
        body: { available: 'maybe', capacity: '500' },
      },
      {
        form: 'quality floor',
        who: 'recruiter',
        page: `/recruiter/events/${live.id}`,
        action: `/recruiter/events/${live.id}/floor`,
        body: { min_score: '101', require_essential: 'x' },
      },
      {
        form: 'candidate note',
        who: 'recruiter',
        page: `/recruiter/candidates/${matched.user.id}`,
        action: `/recruiter/candidates/${matched.user.id}/note`,
        body: { note: 'x'.repeat(5000), rating: '9' },
      },
      {
        form: 'report card',
        who: 'recruiter',
        page: `/matches/${match.id}`,
        action: `/matches/${match.id}/report`,
        body: { fit: '0', communication: 'x', technical: '6', outcome: 'maybe', notes: '' },
      },
      {
        form: 'decline',
        who: 'seeker',
        page: `/matches/${toDecline.id}`,
        action: `/matches/${toDecline.id}/decline`,
        body: { reason: '' },
      },
    );
    const users = { seeker, fresh, recruiter: rec, freshRecruiter: freshRec, anon: null } as const;
    const users2: Record<string, TestUser | null> = { ...users, seeker: seeker };
    const report: string[] = [];
    for (const c of cases) {
      const who = c.form === 'decline' ? decliner : users2[c.who];
      const client = await as(who);
      const page = await client.get(c.page);
      expect([c.form, page.statusCode]).toEqual([c.form, 200]);
      const res = await client.post(c.action, c.body, { csrf: WebClient.csrfOf(page.body) });
      const texts = errorTexts(res.body);
      report.push(`${c.form} (${res.statusCode}): ${texts.join(' | ')}`);
      expect([c.form, res.statusCode >= 400]).toEqual([c.form, true]);
      expect([c.form, texts.length > 0]).toEqual([c.form, true]);
      for (const t of texts) expect([c.form, t, RAW_TEXT.test(t)]).toEqual([c.form, t, false]);
      if (c.expect) expect([c.form, texts.join(' | ')]).toEqual([c.form, expect.stringMatching(c.expect)]);
    }
    expect(report).toHaveLength(cases.length);
  });

  it('turns validator issues and score details into words', () => {
    expect(
      issueMessage({
        path: 'body.salary_min',
        code: 'too_small',
        message: 'Too small: expected number to be >=0',
        minimum: 0,
        inclusive: true,
        origin: 'number',
      }),
    ).toBe('Minimum salary must be 0 or more');
    expect(
      issueMessage({
        path: 'remote_preference',
        code: 'invalid_value',
        message: 'Invalid option: expected one of "onsite"|"hybrid"|"fully_remote"',
        values: ['onsite'],
      }),
    ).toBe('Choose one of the options for remote work');
    expect(issueMessage({ path: 'body.salary_min', message: 'must be less than or equal to salary_max' })).toBe(
      'Minimum salary must be less than or equal to maximum salary',
    );
    expect(
      issueMessage({
        path: 'fit',
        code: 'too_small',
        message: 'Choose a score from 1 to 5 for fit',
        minimum: 1,
        origin: 'number',
      }),
    ).toBe('Choose a score from 1 to 5 for fit');
    expect(scoreDetailWords('5 of 4 required years')).toBe('5 years of experience; the job asks for at least 4 years');
    expect(scoreDetailWords('1 of 3 required years')).toBe('1 year of experience; the job asks for 3 years');
    expect(scoreDetailWords('job hybrid, seeker prefers fully_remote')).toBe('job hybrid, seeker prefers fully remote');
    expect(scoreDetailWords('job onsite, seeker prefers remote')).toBe('job on site, seeker prefers remote');
    expect(scoreDetailWords('8 of 2 required years')).toBe('8 years of experience; the job asks for at least 2 years');
    expect(salaryRange(85000, 110000, 'gbp')).toBe('£85,000 – £110,000 a year');
    expect(salaryRange(null, 90000, 'usd')).toBe('up to $90,000 a year');
    expect(salaryRange(70000, null, 'eur')).toBe('from €70,000 a year');
    expect(salaryRange(null, null, 'usd')).toBeNull();
  });
});
