import { createHarness, type Harness, type TestUser } from '../helpers/harness';
import { WebClient } from '../helpers/web-client';
import { UUID_V4 } from '#apps/api/src/plugins/idempotency';
import { AGENT_IDENTITY_FORM } from '#apps/api/src/plugins/agent-identity';

/** Hostile input at the edge (decision 0162): a clear 400 in the envelope, never a 500, nothing changed. */
describe('input sanitation at the edge', () => {
  let h: Harness;
  let rec: TestUser;
  let doc: any;

  beforeAll(async () => {
    h = await createHarness({ worker: false });
    rec = await h.recruiter();
    doc = (await h.call({ method: 'GET', url: '/api/v1/openapi.json' })).json();
  });
  afterAll(() => h?.close());

  const issuePath = (res: { statusCode: number; json: () => any }) => {
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.code).toBe('VALIDATION');
    return body.details.issues[0].path as string;
  };

  it('a NUL in a path parameter or a query value of a public route names the field', async () => {
    expect(issuePath(await h.call({ method: 'GET', url: '/api/v1/events/a%00b' }))).toBe('params.slug');
    expect(issuePath(await h.call({ method: 'GET', url: '/api/v1/jobs/search?skills=a%00b' }))).toBe('query.skills');
    expect(issuePath(await h.call({ method: 'GET', url: '/api/v1/jobs/search?skills=a&location=x%01y' }))).toBe(
      'query.location',
    );
  });

  it(
    'every operation of the document: a control character in each path parameter, and in a ' +
      'body, is a 400 VALIDATION (no 5xx)',
    async () => {
      const failures: string[] = [];
      let checked = 0;
      for (const [path, ops] of Object.entries<any>(doc.paths)) {
        for (const [method, op] of Object.entries<any>(ops)) {
          if (!['get', 'post', 'patch', 'put', 'delete'].includes(method)) continue;
          const url = path.replace(/\{[^}]+\}/g, 'a%00b');
          const firstParam = /\{([^}]+)\}/.exec(path)?.[1];
          if (url.includes('%00')) {
            const res = await h.call({ method: method.toUpperCase() as 'GET', url, token: rec.token });
            checked++;
            if (
              res.statusCode !== 400 ||
              res.json().code !== 'VALIDATION' ||
              res.json().details?.issues?.[0]?.path !== `params.${firstParam}`
            )
              failures.push(`${method} ${url}: ${res.statusCode} ${res.body.slice(0, 120)}`);
          }
          if (op.requestBody && !path.includes('{')) {
            const res = await h.call({
              method: method.toUpperCase() as 'POST',
              url: path,
              token: rec.token,
              payload: { title: 'a\u0000b', nested: ['ok', { deep: 'x\u0007' }] },
            });
            checked++;
            if (res.statusCode !== 400 || !String(res.json().details?.issues?.[0]?.path).startsWith('body.'))
              failures.push(`${method} ${path} (body): ${res.statusCode} ${res.body.slice(0, 120)}`);
          }
        }
      }
      expect(failures).toEqual([]);
      expect(checked).toBeGreaterThan(20);
      // The probe reached real routes, not the 404 handler.
      expect(Object.keys(doc.paths).every((p) => p.startsWith('/api/v1/'))).toBe(true);
    },
  );

  it('a NUL in a JSON body names the field and changes nothing; tabs and line breaks in text are fine', async () => {
    const before = await h.knex('live_events').count({ n: '*' });
    const res = await h.call({
      method: 'POST',
      url: '/api/v1/live-events',
      token: rec.token,
      payload: { slug: 'nul-fair', company_name: 'Ac\u0000me', visibility: 'open_invite' },
    });
    expect(issuePath(res)).toBe('body.company_name');
    expect(await h.knex('live_events').count({ n: '*' })).toEqual(before);
    const ok = await h.call({
      method: 'POST',
      url: '/api/v1/live-events',
      token: rec.token,
      payload: {
        slug: 'tab-fair',
        company_name: 'Acme',
        description: 'Line one\r\n\tLine two',
        visibility: 'open_invite',
      },
    });
    expect(ok.statusCode).toBe(201);
  });

  it('web forms (sign-up, sign-in) and pages answer 400 for a control character, without creating anything', async () => {
    const web = new WebClient(h.app);
    const signup = await web.submit('/signup', '/signup', {
      display_name: 'Nul\u0000Person',
      email: 'nul@test.local',
      password: 'long enough password',
      role: 'seeker',
    });
    expect(signup.statusCode).toBe(400);
    expect(signup.body).toContain('Your name must not contain control characters');
    expect(await h.knex('users').where({ email: 'nul@test.local' }).first()).toBeUndefined();
    const login = await web.submit('/login', '/login', { email: 'a\u0000@test.local', password: 'x' });
    expect(login.statusCode).toBe(400);
    expect((await web.get('/events/a%00b')).statusCode).toBe(400);
  });

  it('integers outside the bounds of their one schema are 400, not a database error', async () => {
    for (const v of ['2147483648', '9999999999', '100000001']) {
      expect(issuePath(await h.call({ method: 'GET', url: `/api/v1/jobs/search?skills=a&salary_min=${v}` }))).toBe(
        'query.salary_min',
      );
    }
    expect((await h.call({ method: 'GET', url: '/api/v1/jobs/search?skills=a&salary_min=100000000' })).statusCode).toBe(
      200,
    );
    // The document publishes the same bound for the job answers.
    expect(
      doc.components.schemas.Job.properties.salary_min.anyOf?.[0]?.maximum ??
        doc.components.schemas.Job.properties.salary_min.maximum,
    ).toBe(100_000_000);
  });

  it('an over-long path parameter is 414 and a malformed escape 400, both in the envelope', async () => {
    const long = await h.call({ method: 'GET', url: `/api/v1/events/${'a'.repeat(2000)}` });
    expect(long.statusCode).toBe(414);
    expect(long.json()).toMatchObject({ code: 'URI_TOO_LONG', error: expect.any(String) });
    expect(long.json().error.length).toBeLessThan(200);
    const bad = await h.call({ method: 'GET', url: '/api/v1/events/%zz' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ code: 'VALIDATION', details: { issues: [{ path: 'url' }] } });
  });

  it('the OpenAPI header parameters are exactly as strict as the server', async () => {
    const params = doc.components.parameters;
    const idem = new RegExp(params.IdempotencyKey.schema.pattern);
    const agent = new RegExp(params.AgentIdentity.schema.pattern);
    expect(idem.source).toBe(UUID_V4.source);
    expect(agent.source).toBe(AGENT_IDENTITY_FORM.source);
    expect(params.AgentIdentity.schema.maxLength).toBe(200);
    // The document's verdict is the server's verdict.
    for (const key of [
      '5f0c6a4e-8d1b-4c3e-9a7f-2b6d1e0c9f84',
      '5F0C6A4E-8D1B-4C3E-9A7F-2B6D1E0C9F84',
      '5f0c6a4e-8d1b-1c3e-9a7f-2b6d1e0c9f84',
      'not-a-uuid',
    ]) {
      const res = await h.call({
        method: 'PATCH',
        url: '/api/v1/profile',
        token: rec.token,
        payload: { title: 'Recruiter' },
        headers: { 'idempotency-key': key },
      });
      expect({ key, accepted: res.statusCode !== 400 }).toEqual({ key, accepted: idem.test(key) });
    }
    for (const id of ['acme/jobbot (ops@acme.example)', 'acme jobbot', 'acme/jobbot(ops)', 'a/b (c)']) {
      const res = await h.call({
        method: 'GET',
        url: '/api/v1/profile',
        token: rec.token,
        headers: { 'x-agent-identity': id },
      });
      expect({ id, accepted: res.statusCode !== 400 }).toEqual({ id, accepted: agent.test(id) });
    }
  });
});
