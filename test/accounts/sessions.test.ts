import { createHarness, type Harness } from '../helpers/harness';
import { WebClient } from '../helpers/web-client';
import { signUpWithClient } from '../helpers/signup';
import { LOGIN_ATTEMPTS_LIMIT } from '#apps/api/src/accounts/accounts-service';

describe('web sessions: sign-up, sign-in, sign-out, CSRF, rate limits, onboarding', () => {
  let h: Harness;
  beforeAll(async () => {
    // As behind a reverse proxy on loopback (inject's remote address): X-Forwarded-* from it are believed.
    h = await createHarness({ env: { TRUST_PROXY: '127.0.0.1' } });
  });
  afterAll(async () => h?.close());

  // The form, then the e-mailed confirmation link (read from the outbox; decision 0182).
  const signUp = async (c: WebClient, o: { email: string; role?: string; password?: string; next?: string }) =>
    signUpWithClient(c, h, {
      display_name: 'Test Person',
      email: o.email,
      password: o.password ?? 'long enough password',
      role: o.role ?? 'seeker',
      ...(o.next ? { next: o.next } : {}),
    });

  it(
    'signs up with a hashed password and an HttpOnly SameSite=Lax session cookie, then ' + 'requires onboarding',
    async () => {
      const c = new WebClient(h.app);
      const res = await signUp(c, { email: 'ada@example.test' });
      expect(res.statusCode).toBe(303);
      expect(res.headers.location).toBe('/onboarding');
      const setCookie = ([] as string[]).concat(res.headers['set-cookie'] as string[]);
      const session = setCookie.find((s) => s.startsWith('jf_session='))!;
      expect(session).toMatch(/HttpOnly/);
      expect(session).toMatch(/SameSite=Lax/);
      expect(session).not.toMatch(/Secure/);
      const user = await h.knex('users').whereRaw('lower(email) = ?', ['ada@example.test']).first();
      expect(user.password_hash).toMatch(/^scrypt\$/);
      expect(user.password_hash).not.toContain('long enough password');
      // Only the hash of the session token is stored.
      const token = c.cookies.get('jf_session')!;
      const rows = await h.knex('web_sessions').where({ user_id: user.id });
      expect(rows).toHaveLength(1);
      expect(rows[0].id).not.toBe(token);
      expect(rows[0].id).toMatch(/^[0-9a-f]{64}$/);

      const home = await c.get('/');
      expect(home.body).toContain('Finish <a href="/onboarding">your profile</a>');
    },
  );

  it('marks the cookie Secure when the request came over TLS (X-Forwarded-Proto behind a proxy)', async () => {
    const c = new WebClient(h.app, { 'x-forwarded-proto': 'https' });
    const res = await signUp(c, { email: 'tls@example.test' });
    expect(res.statusCode).toBe(303);
    const setCookie = ([] as string[]).concat(res.headers['set-cookie'] as string[]);
    expect(setCookie.find((s) => s.startsWith('jf_session='))).toMatch(/; Secure/);
    expect(res.headers['strict-transport-security']).toBeDefined();
  });

  it('refuses POSTs without a valid CSRF token or from another origin, with no side effect', async () => {
    const c = new WebClient(h.app);
    await c.get('/signup');
    const none = await c.post('/signup', {
      display_name: 'X',
      email: 'csrf@example.test',
      password: 'long enough password',
      role: 'seeker',
    });
    expect(none.statusCode).toBe(403);
    expect(none.headers['content-type']).toMatch(/text\/html/);
    expect(none.body).toContain('did not come from this site');
    const forged = await c.post(
      '/signup',
      { display_name: 'X', email: 'csrf@example.test', password: 'long enough password', role: 'seeker' },
      { csrf: 'A'.repeat(43) },
    );
    expect(forged.statusCode).toBe(403);
    // A token from another browser (other seed cookie) does not fit this browser.
    const other = new WebClient(h.app);
    const otherToken = WebClient.csrfOf((await other.get('/signup')).body);
    expect(
      (
        await c.post(
          '/signup',
          { display_name: 'X', email: 'csrf@example.test', password: 'long enough password', role: 'seeker' },
          { csrf: otherToken },
        )
      ).statusCode,
    ).toBe(403);
    const page = await c.get('/signup');
    const crossSite = await c.post(
      '/signup',
      { display_name: 'X', email: 'csrf@example.test', password: 'long enough password', role: 'seeker' },
      { csrf: WebClient.csrfOf(page.body), headers: { origin: 'https://evil.example' } },
    );
    expect(crossSite.statusCode).toBe(403);
    expect(await h.knex('users').whereRaw('lower(email) = ?', ['csrf@example.test']).first()).toBeUndefined();
  });

  it('validates sign-up with errors next to the fields, never a stack trace', async () => {
    const c = new WebClient(h.app);
    const res = await c.submit('/signup', '/signup', {
      display_name: '',
      email: 'not-an-email',
      password: 'short',
      role: 'admin',
    });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('id="e-email"');
    expect(res.body).toContain('id="e-password"');
    expect(res.body).toContain('id="e-display_name"');
    expect(res.body).toContain('id="e-role"');
    expect(res.body).toContain('aria-invalid="true"');
    expect(res.body).toContain('value="not-an-email"');
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
    await signUp(new WebClient(h.app), { email: 'dup@example.test' });
    // A registered address gets the same answer as a new one (decision 0182); the e-mail tells the owner.
    const dup = await new WebClient(h.app).submit('/signup', '/signup', {
      display_name: 'Test Person',
      email: 'DUP@example.test',
      password: 'long enough password',
      role: 'seeker',
    });
    expect(dup.statusCode).toBe(303);
    expect(dup.headers.location).toBe('/signup/sent');
    expect(dup.body).not.toContain('already registered');
  });

  it('signs in, ignores foreign next= targets, signs out and forgets the session', async () => {
    const c = new WebClient(h.app);
    await signUp(c, { email: 'bob@example.test', role: 'recruiter' });
    await c.submit('/onboarding', '/onboarding', { full_name: 'Bob Builder', title: 'Recruiter', team_name: 'Bob Co' });
    const out = await c.submit('/', '/logout', {});
    expect(out.statusCode).toBe(303);
    expect(c.cookies.has('jf_session')).toBe(false);
    expect((await c.get('/account/api-tokens')).headers.location).toBe('/login?next=%2Faccount%2Fapi-tokens');

    const wrong = await c.submit('/login', '/login', { email: 'bob@example.test', password: 'not the password' });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.body).toContain('Wrong e-mail address or password');
    const unknown = await c.submit('/login', '/login', { email: 'nobody@example.test', password: 'not the password' });
    expect(unknown.body).toContain('Wrong e-mail address or password');

    const ok = await c.submit('/login?next=//evil.example/x', '/login', {
      email: 'bob@example.test',
      password: 'long enough password',
      next: '//evil.example/x',
    });
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/recruiter');
    const again = await c.submit('/', '/logout', {});
    expect(again.statusCode).toBe(303);
    const ok2 = await c.submit('/login', '/login', {
      email: 'bob@example.test',
      password: 'long enough password',
      next: '/account/api-tokens',
    });
    expect(ok2.headers.location).toBe('/account/api-tokens');
  });

  it('refuses an expired session and clears its cookie', async () => {
    const c = new WebClient(h.app);
    await signUp(c, { email: 'old@example.test' });
    const token = c.cookies.get('jf_session')!;
    expect((await c.get('/onboarding')).statusCode).toBe(200);
    const { hashSessionToken } = await import('#apps/api/src/accounts/sessions-service');
    await h
      .knex('web_sessions')
      .where({ id: hashSessionToken(token) })
      .update({ expires_at: new Date(Date.now() - 1000) });
    const res = await c.get('/onboarding');
    expect(res.statusCode).toBe(303);
    expect(res.headers.location).toBe('/login?next=%2Fonboarding');
    expect(c.cookies.has('jf_session')).toBe(false);
  });

  it(`rate-limits sign-in attempts per account and IP after ${LOGIN_ATTEMPTS_LIMIT}`, async () => {
    const c = new WebClient(h.app);
    await signUp(c, { email: 'carol@example.test' });
    const attacker = new WebClient(h.app, {}, { retry: false });
    for (let i = 0; i < LOGIN_ATTEMPTS_LIMIT; i++) {
      const r = await attacker.submit('/login', '/login', { email: 'carol@example.test', password: `guess-${i}` });
      expect(r.statusCode).toBe(400);
    }
    const limited = await attacker.submit('/login', '/login', {
      email: 'carol@example.test',
      password: 'long enough password',
    });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.body).toContain('Too many sign-in attempts');
    // Another client IP for the same account is not affected.
    const elsewhere = new WebClient(h.app, { 'x-forwarded-for': '203.0.113.9' });
    const fine = await elsewhere.submit('/login', '/login', {
      email: 'carol@example.test',
      password: 'long enough password',
    });
    expect(fine.statusCode).toBe(303);
  });

  it(
    'onboards a seeker with the PATCH /profile schemas, errors next to fields, then the API ' + 'sees the profile',
    async () => {
      const c = new WebClient(h.app);
      await signUp(c, { email: 'dora@example.test', next: '/queue' });
      const bad = await c.submit('/onboarding', '/onboarding', {
        full_name: 'Dora',
        title: '',
        experience_years: '99',
        skills: 'Go',
        remote_preference: 'moon',
      });
      expect(bad.statusCode).toBe(400);
      expect(bad.body).toContain('id="e-title"');
      expect(bad.body).toContain('id="e-experience_years"');
      expect(bad.body).toContain('id="e-remote_preference"');
      const user = await h.knex('users').whereRaw('lower(email) = ?', ['dora@example.test']).first();
      expect(user.onboarding_completed_at).toBeNull();
      expect(await h.knex('profiles').where({ user_id: user.id }).first()).toBeUndefined();

      const ok = await c.submit('/onboarding', '/onboarding', {
        full_name: 'Dora Explorer',
        title: 'Data engineer',
        summary: '',
        skills: 'Python, SQL, python',
        experience_years: '4',
        location: 'Lisbon',
        remote_preference: 'fully_remote',
        next: '/queue',
      });
      expect(ok.statusCode).toBe(303);
      expect(ok.headers.location).toBe('/queue');
      const profile = await h.knex('profiles').where({ user_id: user.id }).first();
      expect(profile).toMatchObject({
        full_name: 'Dora Explorer',
        title: 'Data engineer',
        summary: null,
        skills: ['Python', 'SQL'],
        experience_years: 4,
        remote_preference: 'fully_remote',
      });
      expect((await h.knex('users').where({ id: user.id }).first()).onboarding_completed_at).not.toBeNull();
    },
  );

  it('onboards a recruiter into a new team they own', async () => {
    const c = new WebClient(h.app);
    await signUp(c, { email: 'erin@example.test', role: 'recruiter' });
    const bad = await c.submit('/onboarding', '/onboarding', { full_name: 'Erin', team_name: '' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('id="e-team_name"');
    const ok = await c.submit('/onboarding', '/onboarding', {
      full_name: 'Erin Recruiter',
      title: 'Talent lead',
      team_name: 'Erin Corp',
    });
    expect(ok.statusCode).toBe(303);
    const user = await h.knex('users').whereRaw('lower(email) = ?', ['erin@example.test']).first();
    const m = await h
      .knex('team_members as m')
      .join('teams as t', 't.id', 'm.team_id')
      .where('m.user_id', user.id)
      .first('t.name', 'm.role');
    expect(m).toEqual({ name: 'Erin Corp', role: 'owner' });
  });

  it('serves pages and assets with a strict CSP, under 100 KB, and keeps them out of the OpenAPI document', async () => {
    const c = new WebClient(h.app);
    for (const url of ['/', '/signup', '/login', '/static/app.css', '/static/app.js']) {
      const r = await c.get(url);
      expect(r.statusCode).toBe(200);
      expect(r.rawPayload.length).toBeLessThan(100 * 1024);
      expect(r.headers['content-security-policy']).toContain("script-src 'self'");
    }
    expect((await c.get('/static/../../app.ts')).statusCode).toBe(404);
    const doc = (await h.call({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/v1'))).toEqual([]);
    expect((await c.get('/settings/api-tokens')).headers.location).toBe('/account/api-tokens');
  });
});
