import { createHarness, eventually, type Harness } from '../helpers/harness';
import { queueEntryWorkflowId } from '#workflows/queue/contract';

describe('queue join: API → queueEntry workflow → activity → PostgreSQL → back', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ env: { QUEUE_ENTRY_TTL_MS: '600000' } });
  });
  afterAll(async () => h?.close());

  it('creates an entry, projects it, and resumes the same entry on a second join', async () => {
    const s = await h.seeker();
    const first = await h.call({
      method: 'POST',
      url: '/api/v1/queue/join',
      token: s.token,
      headers: { 'x-agent-identity': 'acme/jobbot (ops@acme.example)' },
    });
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(body).toMatchObject({
      status: 'waiting',
      live_event_slug: null,
      join_url: 'http://jobfair.test/queue',
      position: 1,
      estimated_wait_seconds: null,
      match_id: null,
    });
    expect(body.humans_only_note).toMatch(/web application/);

    const row = await h.knex('queue_entries').where({ id: body.queue_id }).first();
    expect(row).toMatchObject({
      user_id: s.user.id,
      status: 'waiting',
      via_agent: true,
      agent_identity: 'acme/jobbot (ops@acme.example)',
    });

    const again = await h.call({ method: 'POST', url: '/api/v1/queue/join', token: s.token });
    expect(again.statusCode).toBe(200);
    expect(again.json().queue_id).toBe(body.queue_id);

    const status = await h.call({ method: 'GET', url: '/api/v1/queue/status', token: s.token });
    expect(status.statusCode).toBe(200);
    expect(status.json().queue_entry).toMatchObject({
      id: body.queue_id,
      status: 'waiting',
      position: 1,
      match_id: null,
      joined_via_agent: true,
    });

    // The workflow is real and visible to operators by its search attributes.
    const desc = await h.temporal.workflow.getHandle(queueEntryWorkflowId(s.user.id)).describe();
    expect(desc.status.name).toBe('RUNNING');
    expect(desc.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value])).toEqual(
      expect.arrayContaining([
        ['JobfairEntity', 'queue_entry'],
        ['JobfairStatus', 'waiting'],
        ['JobfairUserId', s.user.id],
      ]),
    );
  });

  it('orders positions oldest first and uses the token name when X-Agent-Identity is absent', async () => {
    const a = await h.seeker();
    const b = await h.seeker();
    const ra = (await h.call({ method: 'POST', url: '/api/v1/queue/join', token: a.token })).json();
    const rb = (await h.call({ method: 'POST', url: '/api/v1/queue/join', token: b.token })).json();
    expect(rb.position).toBe(ra.position + 1);
    const row = await h.knex('queue_entries').where({ id: rb.queue_id }).first();
    expect(row.agent_identity).toMatch(/^test token /);
  });

  it(
    'refuses a seeker without a completed profile (409), a recruiter (403), bad bodies and ' +
      'headers (400), unknown events (404)',
    async () => {
      const fresh = await h.seeker({ onboarded: false });
      const r1 = await h.call({ method: 'POST', url: '/api/v1/queue/join', token: fresh.token });
      expect(r1.statusCode).toBe(409);
      expect(r1.json().code).toBe('ONBOARDING_INCOMPLETE');

      const rec = await h.recruiter();
      const r2 = await h.call({ method: 'POST', url: '/api/v1/queue/join', token: rec.token });
      expect(r2.statusCode).toBe(403);

      const s = await h.seeker();
      const r3 = await h.call({
        method: 'POST',
        url: '/api/v1/queue/join',
        token: s.token,
        payload: { live_event_slug: 'ok-slug', job_id: 'x' },
      });
      expect(r3.statusCode).toBe(400);
      expect(r3.json().code).toBe('VALIDATION');
      expect(r3.body).toContain('job_id');

      const r4 = await h.call({
        method: 'POST',
        url: '/api/v1/queue/join',
        token: s.token,
        payload: { live_event_slug: 'ab' },
      });
      expect(r4.statusCode).toBe(400);

      const r5 = await h.call({
        method: 'POST',
        url: '/api/v1/queue/join',
        token: s.token,
        headers: { 'x-agent-identity': 'x'.repeat(201) },
      });
      expect(r5.statusCode).toBe(400);
      expect(r5.json().details.issues[0].path).toBe('headers.x-agent-identity');

      const r6 = await h.call({
        method: 'POST',
        url: '/api/v1/queue/join',
        token: s.token,
        payload: { live_event_slug: 'no-such-event' },
      });
      expect(r6.statusCode).toBe(404);
      expect(r6.json().code).toBe('NOT_FOUND');
      // Nothing was created by any refused call.
      expect(await h.knex('queue_entries').where({ user_id: s.user.id }).first()).toBeUndefined();
    },
  );
});

describe('leaving the queue', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ env: { QUEUE_ENTRY_TTL_MS: '600000' } });
  });
  afterAll(async () => h?.close());

  it(
    'a waiting entry leaves (status left, workflow closed); leaving again is 404; a later join ' + 'is a new entry',
    async () => {
      const s = await h.seeker();
      expect((await h.call({ method: 'POST', url: '/api/v1/queue/leave', token: s.token })).statusCode).toBe(404);
      const joined = (await h.call({ method: 'POST', url: '/api/v1/queue/join', token: s.token })).json();
      const left = await h.call({ method: 'POST', url: '/api/v1/queue/leave', token: s.token });
      expect(left.statusCode).toBe(200);
      expect(left.json().queue_entry).toMatchObject({ id: joined.queue_id, status: 'left', position: null });
      const row = await h.knex('queue_entries').where({ id: joined.queue_id }).first();
      expect(row).toMatchObject({ status: 'left', end_reason: 'left by the seeker' });
      await eventually(
        async () =>
          (await h.temporal.workflow.getHandle(queueEntryWorkflowId(s.user.id)).describe()).status.name === 'COMPLETED',
      );
      const again = await h.call({ method: 'POST', url: '/api/v1/queue/leave', token: s.token });
      expect(again.statusCode).toBe(404);
      expect(again.json().code).toBe('NOT_FOUND');
      const rejoined = (await h.call({ method: 'POST', url: '/api/v1/queue/join', token: s.token })).json();
      expect(rejoined.queue_id).not.toBe(joined.queue_id);

      // Asking for another queue while in one is refused, not silently answered with the old entry.
      const rec = await h.recruiter();
      const [event] = await h
        .knex('live_events')
        .insert({
          team_id: rec.teamId,
          slug: `ev-${rejoined.queue_id.slice(0, 8)}`,
          company_name: 'Acme',
          visibility: 'open_invite',
          status: 'live',
          started_at: new Date(),
        })
        .returning('*');
      const other = await h.call({
        method: 'POST',
        url: '/api/v1/queue/join',
        token: s.token,
        payload: { live_event_slug: event.slug },
      });
      expect(other.statusCode).toBe(409);
      expect(other.json()).toMatchObject({
        code: 'QUEUE_ENTRY_EXISTS',
        details: { queue_id: rejoined.queue_id, live_event_slug: null },
      });
      // By id works as the `event_id` alias (a slug or an id) once the seeker has left.
      await h.call({ method: 'POST', url: '/api/v1/queue/leave', token: s.token });
      const byId = await h.call({
        method: 'POST',
        url: '/api/v1/queue/join',
        token: s.token,
        payload: { event_id: event.id },
      });
      expect(byId.statusCode).toBe(200);
      expect(byId.json().live_event_slug).toBe(event.slug);
      // Scope: a token without queue:write is refused before anything happens.
      const readOnly = await s.tokenWith(['queue:read']);
      const r = await h.call({ method: 'POST', url: '/api/v1/queue/leave', token: readOnly });
      expect(r.statusCode).toBe(403);
      expect(r.json().details.required_scope).toBe('queue:write');
    },
  );
});

describe('queue entry TTL', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ env: { QUEUE_ENTRY_TTL_MS: '300' } });
  });
  afterAll(async () => h?.close());

  it('expires a waiting entry after its TTL, and a later join starts a new entry', async () => {
    const s = await h.seeker();
    const first = (await h.call({ method: 'POST', url: '/api/v1/queue/join', token: s.token })).json();
    const expired = await eventually(async () => {
      const r = (await h.call({ method: 'GET', url: '/api/v1/queue/status', token: s.token })).json();
      return r.queue_entry?.status === 'expired' && r.queue_entry;
    });
    expect(expired).toMatchObject({ id: first.queue_id, position: null });
    const row = await h.knex('queue_entries').where({ id: first.queue_id }).first();
    expect(row.end_reason).toBe('time to live elapsed');
    expect(row.ended_at).not.toBeNull();

    const res = await h.call({ method: 'POST', url: '/api/v1/queue/join', token: s.token });
    expect([res.statusCode, res.json()]).toEqual([200, expect.objectContaining({ status: 'waiting' })]);
    expect(res.json().queue_id).not.toBe(first.queue_id);
  });
});
