import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHarness, type Harness, type TestUser } from '../helpers/harness';
import { createJob, liveEvent } from '../events/helpers';
import { computeMatchScore, MATCH_SCORE_VERSION_FLOOR } from '#domain/matchmaking/match-score';
import { comparisonAnswerSchema } from '#apps/api/src/matchmaking/comparison-provider';
import { COMPARISON_COST_BUCKET_MS } from '#apps/api/src/matchmaking/comparison-routes';
import { withinOneCostBucket } from '../helpers/cost-bucket';

// The route's automatic cost bucket applies only without a key, and its 503s are asserted: the raw call.
const compare = (h: Harness, token: string, jobId: string) =>
  h.call({ method: 'POST', url: `/api/v1/jobs/${jobId}/comparison`, token, retry: false, idempotencyKey: false });

describe('POST /jobs/{id}/comparison with the built-in provider (no AI_PROVIDER_URL)', () => {
  let h: Harness;
  let rec: TestUser;
  let jobId: string;
  beforeAll(async () => {
    h = await createHarness();
    rec = await h.recruiter();
    const ev = await liveEvent(h, rec);
    jobId = (
      await createJob(h, rec, ev.id, {
        title: 'Backend Engineer',
        essential_skills: ['TypeScript', 'Go'],
        bonus_skills: ['PostgreSQL'],
        experience_min: 8,
        remote_preference: 'remote',
      })
    ).id;
  });
  afterAll(async () => h?.close());

  it(
    "explains the scorer's breakdown, says provider builtin, and is a cost-bearing call with " + 'an automatic bucket',
    async () => {
      const s = await h.seeker({
        profile: { skills: ['typescript', 'PostgreSQL'], experience_years: 5, remote_preference: 'fully_remote' },
      });
      await withinOneCostBucket(COMPARISON_COST_BUCKET_MS);
      const r = await compare(h, s.token, jobId);
      expect(r.statusCode).toBe(200);
      const c = r.json().comparison;
      const expected = computeMatchScore(
        { skills: ['typescript', 'PostgreSQL'], experienceYears: 5, location: null, remotePreference: 'fully_remote' },
        {
          essentialSkills: ['TypeScript', 'Go'],
          bonusSkills: ['PostgreSQL'],
          experienceMin: 8,
          salaryMin: null,
          salaryMax: null,
          location: null,
          remotePreference: 'remote',
        },
      );
      expect(c).toMatchObject({
        job_id: jobId,
        provider: 'builtin',
        model: null,
        match_score: expected.score,
        // The version matches carry (the matchmaker writes v2): the same number, the same scorer.
        score_version: MATCH_SCORE_VERSION_FLOOR,
      });
      expect(MATCH_SCORE_VERSION_FLOOR).toBe('v2');
      expect(c.summary).toContain('(scorer v2)');
      expect(c.strengths.join(' ')).toMatch(/Essential skills you have: TypeScript/);
      expect(c.strengths.join(' ')).toMatch(/Bonus skills you have: PostgreSQL/);
      expect(c.gaps.join(' ')).toMatch(/Essential skills not on your profile: Go/);
      expect(c.gaps.join(' ')).toMatch(/Experience: 5 years of experience; the job asks for 8 years/);
      // People's words throughout: no vocabulary values ("fully_remote"), no "a onsite", no "5 of 8 required years".
      const prose = [c.summary, ...c.strengths, ...c.gaps, ...c.talking_points].join(' ');
      expect(prose).not.toMatch(/\b[a-z]+_[a-z]+\b|required years|\ba (onsite|on site|remote|fully)/);
      expect(prose).toMatch(/seeker prefers fully remote/);
      expect(c.talking_points.join(' ')).toMatch(/get up to speed with Go/);
      expect(
        comparisonAnswerSchema.safeParse({
          summary: c.summary,
          strengths: c.strengths,
          gaps: c.gaps,
          talking_points: c.talking_points,
        }).success,
      ).toBe(true);
      expect(r.headers['x-ratelimit-limit']).toBe('3');
      expect(r.headers['x-ratelimit-remaining']).toBe('2');

      // The automatic idempotency bucket: the same call again costs nothing and answers the same.
      const again = await compare(h, s.token, jobId);
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(r.json());
      expect(again.headers['x-ratelimit-remaining']).toBe('2');
    },
  );

  it(
    'refuses recruiters (403), seekers without a profile (409), unknown or non-public jobs ' +
      '(404), tokens without jobs:read (403)',
    async () => {
      expect((await compare(h, rec.token, jobId)).json().code).toBe('ROLE_NOT_ALLOWED');
      const fresh = await h.seeker({ onboarded: false });
      expect((await compare(h, fresh.token, jobId)).json().code).toBe('ONBOARDING_INCOMPLETE');
      const s = await h.seeker();
      expect((await compare(h, s.token, '00000000-0000-4000-8000-000000000000')).statusCode).toBe(404);
      expect((await compare(h, s.token, 'not-a-uuid')).statusCode).toBe(404);
      const draftEventJob = await (async () => {
        const res = await h.call({
          method: 'POST',
          url: '/api/v1/live-events',
          token: rec.token,
          payload: { slug: `draft-${Date.now()}`, company_name: 'Acme', visibility: 'open_invite' },
        });
        return createJob(h, rec, res.json().event.id);
      })();
      expect((await compare(h, s.token, draftEventJob.id)).statusCode).toBe(404);
      const narrow = await s.tokenWith(['profile:read']);
      const r = await compare(h, narrow, jobId);
      expect(r.statusCode).toBe(403);
      expect(r.json()).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required_scope: 'jobs:read' } });
    },
  );
});

/** A real OpenAI-compatible HTTP server: checks what we send, answers what the test says. */
async function startFakeModel(port = 0) {
  const requests: Array<{ headers: http.IncomingHttpHeaders; body: any; url: string }> = [];
  let answer: (body: any) => { status: number; json?: unknown; content?: string } = () => ({ status: 500 });
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      requests.push({ headers: req.headers, body, url: req.url ?? '' });
      const a = answer(body);
      res.writeHead(a.status, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          a.json ?? {
            id: 'chatcmpl-1',
            object: 'chat.completion',
            model: body.model,
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: a.content ?? '' } }],
          },
        ),
      );
    });
  });
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`,
    requests,
    answer: (f: typeof answer) => {
      answer = f;
    },
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

describe('POST /jobs/{id}/comparison with an OpenAI-compatible provider (AI_PROVIDER_URL)', () => {
  let h: Harness;
  let model: Awaited<ReturnType<typeof startFakeModel>>;
  let rec: TestUser;
  let eventId: string;
  const newJob = async () =>
    (await createJob(h, rec, eventId, { title: 'Data Engineer', essential_skills: ['Python', 'TypeScript'] })).id;

  beforeAll(async () => {
    model = await startFakeModel();
    h = await createHarness({
      env: {
        AI_PROVIDER_URL: model.url,
        AI_PROVIDER_KEY: 'sk-test-key',
        AI_PROVIDER_MODEL: 'test-model-1',
        AI_PROVIDER_TIMEOUT_MS: '2000',
        RATE_LIMIT_COST_PER_MIN: '100',
      },
    });
    rec = await h.recruiter();
    eventId = (await liveEvent(h, rec)).id;
  });
  afterAll(async () => {
    await h?.close();
    await model?.close();
  });

  it('asks the model with a strict JSON schema and returns its validated answer', async () => {
    const valid = {
      summary: 'Strong on TypeScript, new to Python.',
      strengths: ['TypeScript in production'],
      gaps: ['No Python on the profile'],
      talking_points: ['Ask about the Python stack'],
    };
    model.answer(() => ({ status: 200, content: JSON.stringify(valid) }));
    const s = await h.seeker({ profile: { full_name: 'Private Name', skills: ['TypeScript'] } });
    const jobId = await newJob();
    const r = await compare(h, s.token, jobId);
    expect(r.statusCode).toBe(200);
    expect(r.json().comparison).toMatchObject({
      provider: 'openai_compatible',
      model: 'test-model-1',
      ...valid,
      match_score: expect.any(Number),
    });

    const sent = model.requests.at(-1)!;
    expect(sent.url).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test-key');
    expect(sent.body).toMatchObject({
      model: 'test-model-1',
      response_format: { type: 'json_schema', json_schema: { name: 'job_comparison', strict: true } },
    });
    expect(sent.body.response_format.json_schema.schema).toMatchObject({
      additionalProperties: false,
      required: ['summary', 'strengths', 'gaps', 'talking_points'],
    });
    const user = JSON.parse(sent.body.messages.at(-1).content);
    expect(user.job).toMatchObject({ title: 'Data Engineer', essential_skills: ['Python', 'TypeScript'] });
    expect(user.candidate.skills).toEqual(['TypeScript']);
    // The seeker's name and e-mail never leave the service.
    expect(JSON.stringify(sent.body)).not.toContain('Private Name');
    expect(JSON.stringify(sent.body)).not.toContain(s.user.email);
  });

  it.each([
    [
      'an answer with an extra property',
      () => ({
        status: 200,
        content: JSON.stringify({ summary: 'x', strengths: [], gaps: [], talking_points: ['y'], score: 100 }),
      }),
    ],
    [
      'an answer missing talking_points',
      () => ({ status: 200, content: JSON.stringify({ summary: 'x', strengths: [], gaps: [] }) }),
    ],
    ['an answer that is not JSON', () => ({ status: 200, content: 'Sure! Here is the comparison…' })],
    ['a 500 from the provider', () => ({ status: 500, json: { error: { message: 'overloaded' } } })],
  ])('%s → 503 DEPENDENCY_UNAVAILABLE with Retry-After', async (_label, f) => {
    model.answer(f);
    const s = await h.seeker();
    const r = await compare(h, s.token, await newJob());
    expect(r.statusCode).toBe(503);
    expect(r.json()).toMatchObject({ code: 'DEPENDENCY_UNAVAILABLE', details: { dependency: 'AI provider' } });
    expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
  });

  it('an unreachable provider → 503, and a 503 is not stored: the same call succeeds once it is back', async () => {
    const s = await h.seeker();
    const jobId = await newJob();
    await model.close();
    const down = await compare(h, s.token, jobId);
    expect(down.statusCode).toBe(503);
    // Back on the configured port.
    model = await startFakeModel(Number(new URL(model.url).port));
    model.answer(() => ({
      status: 200,
      content: JSON.stringify({ summary: 'Back.', strengths: [], gaps: [], talking_points: ['Hello'] }),
    }));
    const up = await compare(h, s.token, jobId);
    expect(up.statusCode).toBe(200);
    expect(up.json().comparison.summary).toBe('Back.');
  });
});
