import { randomUUID } from 'node:crypto';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { liveEventWorkflowId } from '#workflows/events/contract';
import { createEvent, createJob, transition, uniqueSlug } from './helpers';

describe('live events: create, read, update, and the go-live/pause/resume/end workflow', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ env: { PUBLIC_CACHE_TTL_MS: '0', QUEUE_ENTRY_TTL_MS: '600000' } });
  });
  afterAll(async () => h?.close());

  it('creates a draft event with defaults, reads and lists it, and edits its description', async () => {
    const rec = await h.recruiter();
    const slug = uniqueSlug('launch');
    const res = await h.call({
      method: 'POST',
      url: '/api/v1/live-events',
      token: rec.token,
      payload: {
        slug,
        headline: 'We are hiring',
        accent_color: '#AABBCC',
        planned_start_at: '2030-01-01T10:00:00Z',
        planned_end_at: '2030-01-01T18:00:00Z',
      },
    });
    expect(res.statusCode).toBe(201);
    const event = res.json().event;
    expect(event).toMatchObject({
      slug,
      status: 'draft',
      visibility: 'open_invite',
      company_name: expect.stringMatching(/^Team /),
      accent_color: '#aabbcc',
      headline: 'We are hiring',
      started_at: null,
      ends_at: null,
      interview_slots: 1,
      candidates_joined: 0,
      matches_made: 0,
      job_titles: [],
      join_url: `http://jobfair.test/events/${slug}`,
    });

    const got = await h.call({ method: 'GET', url: `/api/v1/team/live-events/${event.id}`, token: rec.token });
    expect(got.statusCode).toBe(200);
    expect(got.json().event.id).toBe(event.id);

    const patched = await h.call({
      method: 'PATCH',
      url: `/api/v1/team/live-events/${event.id}`,
      token: rec.token,
      payload: { headline: 'Now hiring', interview_slots: 3 },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().event).toMatchObject({ headline: 'Now hiring', interview_slots: 3, status: 'draft' });

    const second = await createEvent(h, rec);
    const list = await h.call({ method: 'GET', url: '/api/v1/team/live-events?limit=1', token: rec.token });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((e: { id: string }) => e.id)).toEqual([second.id]);
    expect(list.json().has_more).toBe(true);
    const next = await h.call({
      method: 'GET',
      url: `/api/v1/team/live-events?limit=1&cursor=${encodeURIComponent(list.json().next_cursor)}`,
      token: rec.token,
    });
    expect(next.json().data.map((e: { id: string }) => e.id)).toEqual([event.id]);
    const drafts = await h.call({ method: 'GET', url: '/api/v1/team/live-events?status=live', token: rec.token });
    expect(drafts.json().data).toEqual([]);
  });

  it('refuses bad event bodies (400 naming the field), a taken slug (409), and a reversed planned window', async () => {
    const rec = await h.recruiter();
    const bad = async (payload: Record<string, unknown>, path: string) => {
      const r = await h.call({ method: 'POST', url: '/api/v1/live-events', token: rec.token, payload });
      expect(r.statusCode).toBe(400);
      expect(r.json().code).toBe('VALIDATION');
      expect(r.json().details.issues.map((i: { path: string }) => i.path)).toContain(path);
    };
    await bad({ slug: 'AB' }, 'body.slug');
    await bad({ slug: 'Has Spaces' }, 'body.slug');
    await bad({ slug: 'x'.repeat(65) }, 'body.slug');
    await bad({ slug: uniqueSlug(), accent_color: 'red' }, 'body.accent_color');
    await bad({ slug: uniqueSlug(), visibility: 'public' }, 'body.visibility');
    await bad({ slug: uniqueSlug(), logo_url: 'not a url' }, 'body.logo_url');
    await bad({ slug: uniqueSlug(), status: 'live' }, 'body.status');
    await bad(
      { slug: uniqueSlug(), planned_start_at: '2030-01-02T00:00:00Z', planned_end_at: '2030-01-01T00:00:00Z' },
      'body.planned_end_at',
    );

    const e = await createEvent(h, rec);
    const dup = await h.call({
      method: 'POST',
      url: '/api/v1/live-events',
      token: rec.token,
      payload: { slug: e.slug },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json().code).toBe('SLUG_TAKEN');
    expect(
      await h.knex('live_events').where({ team_id: rec.teamId }).count<{ count: number }[]>({ count: '*' }),
    ).toEqual([{ count: 1 }]);
  });

  it(
    'goes live through the workflow: status projected, started_at and ends_at set, search ' +
      'attributes upserted; replays change nothing',
    async () => {
      const rec = await h.recruiter();
      const e = await createEvent(h, rec, { planned_end_at: '2031-05-01T12:00:00Z' });
      const live = await transition(h, rec, e.id, 'go-live');
      expect(live.statusCode).toBe(200);
      const ev = live.json().event;
      expect(ev).toMatchObject({ status: 'live', ends_at: '2031-05-01T12:00:00.000Z', ended_at: null });
      expect(ev.started_at).not.toBeNull();

      const row = await h.knex('live_events').where({ id: e.id }).first();
      expect(row.status).toBe('live');
      const handle = h.temporal.workflow.getHandle(liveEventWorkflowId(e.id));
      const desc = await handle.describe();
      expect(desc.status.name).toBe('RUNNING');
      expect(desc.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value])).toEqual(
        expect.arrayContaining([
          ['JobfairEntity', 'live_event'],
          ['JobfairStatus', 'live'],
          ['JobfairEventSlug', e.slug],
          ['JobfairTeamId', rec.teamId],
        ]),
      );

      // Replay: same answer, started_at untouched, no second run.
      const again = await transition(h, rec, e.id, 'go-live');
      expect(again.statusCode).toBe(200);
      expect(again.json().event.started_at).toBe(ev.started_at);
      expect((await handle.describe()).runId).toBe(desc.runId);

      // Idempotency-Key: the second call is a stored replay.
      const key = randomUUID();
      const p1 = await transition(h, rec, e.id, 'pause', { 'idempotency-key': key });
      expect(p1.statusCode).toBe(200);
      expect(p1.json().event.status).toBe('paused');
      const p2 = await transition(h, rec, e.id, 'pause', { 'idempotency-key': key });
      expect(p2.statusCode).toBe(200);
      expect(p2.headers['idempotent-replayed']).toBe('true');
      expect(p2.json()).toEqual(p1.json());

      // Pause replay without a key: 200, still paused.
      const p3 = await transition(h, rec, e.id, 'pause');
      expect(p3.statusCode).toBe(200);
      expect(p3.json().event.status).toBe('paused');
      expect(
        (await handle.describe()).typedSearchAttributes.getAll().find((p) => p.key.name === 'JobfairStatus')?.value,
      ).toBe('paused');

      // go-live on a paused event is refused: resume is the move.
      const illegal = await transition(h, rec, e.id, 'go-live');
      expect(illegal.statusCode).toBe(409);
      expect(illegal.json()).toMatchObject({
        code: 'ILLEGAL_TRANSITION',
        details: { status: 'paused', transition: 'goLive' },
      });

      const resumed = await transition(h, rec, e.id, 'resume');
      expect(resumed.statusCode).toBe(200);
      expect(resumed.json().event.status).toBe('live');
      expect(resumed.json().event.started_at).toBe(ev.started_at);
      const resumeReplay = await transition(h, rec, e.id, 'resume');
      expect(resumeReplay.statusCode).toBe(200);

      // Moving the planned end of a live event moves ends_at (through the workflow).
      const moved = await h.call({
        method: 'PATCH',
        url: `/api/v1/team/live-events/${e.id}`,
        token: rec.token,
        payload: { planned_end_at: '2031-06-01T12:00:00Z' },
      });
      expect(moved.statusCode).toBe(200);
      await eventually(
        async () =>
          (await h.knex('live_events').where({ id: e.id }).first()).ends_at?.toISOString() ===
          '2031-06-01T12:00:00.000Z',
      );
      const slugLocked = await h.call({
        method: 'PATCH',
        url: `/api/v1/team/live-events/${e.id}`,
        token: rec.token,
        payload: { slug: uniqueSlug() },
      });
      expect(slugLocked.statusCode).toBe(409);
      expect(slugLocked.json().code).toBe('EVENT_SLUG_LOCKED');

      const ended = await transition(h, rec, e.id, 'end');
      expect(ended.statusCode).toBe(200);
      const endedEvent = ended.json().event;
      expect(endedEvent.status).toBe('ended');
      expect(endedEvent.ended_at).not.toBeNull();
      expect(endedEvent.ends_at).toBe(endedEvent.ended_at);

      // After end: end replays are 200; every other move is 409 EVENT_ALREADY_ENDED; edits refused.
      expect((await transition(h, rec, e.id, 'end')).statusCode).toBe(200);
      for (const move of ['go-live', 'pause', 'resume'] as const) {
        const r = await transition(h, rec, e.id, move);
        expect(r.statusCode).toBe(409);
        expect(r.json().code).toBe('EVENT_ALREADY_ENDED');
      }
      const edit = await h.call({
        method: 'PATCH',
        url: `/api/v1/team/live-events/${e.id}`,
        token: rec.token,
        payload: { headline: 'x' },
      });
      expect(edit.statusCode).toBe(409);
      expect(edit.json().code).toBe('EVENT_ALREADY_ENDED');
      const job = await h.call({
        method: 'POST',
        url: '/api/v1/jobs',
        token: rec.token,
        payload: { live_event_id: e.id, title: 'Late', essential_skills: ['Go'] },
      });
      expect(job.statusCode).toBe(409);
      expect(job.json().code).toBe('EVENT_ALREADY_ENDED');

      // The run closes once drained; replays and refusals still answer from PostgreSQL.
      const result = await handle.result();
      expect(result).toMatchObject({ status: 'ended', drained: true });
      expect((await transition(h, rec, e.id, 'end')).statusCode).toBe(200);
      const late = await transition(h, rec, e.id, 'go-live');
      expect(late.statusCode).toBe(409);
      expect(late.json().code).toBe('EVENT_ALREADY_ENDED');
      const lateResume = await transition(h, rec, e.id, 'resume');
      expect(lateResume.json().code).toBe('EVENT_ALREADY_ENDED');
      expect((await h.knex('live_events').where({ id: e.id }).first()).status).toBe('ended');
    },
  );

  it('refuses pause/resume/end of a draft (409 EVENT_NOT_LIVE) and starts no workflow', async () => {
    const rec = await h.recruiter();
    const e = await createEvent(h, rec);
    for (const move of ['pause', 'resume', 'end'] as const) {
      const r = await transition(h, rec, e.id, move);
      expect(r.statusCode).toBe(409);
      expect(r.json()).toMatchObject({ code: 'EVENT_NOT_LIVE', details: { status: 'draft' } });
    }
    await expect(h.temporal.workflow.getHandle(liveEventWorkflowId(e.id)).describe()).rejects.toThrow();
    expect((await h.knex('live_events').where({ id: e.id }).first()).status).toBe('draft');
  });

  it('recovers an event whose run an operator terminated: the next transition starts a run from PostgreSQL', async () => {
    const rec = await h.recruiter();
    const e = await createEvent(h, rec);
    const live = (await transition(h, rec, e.id, 'go-live')).json().event;
    const handle = h.temporal.workflow.getHandle(liveEventWorkflowId(e.id));
    const first = (await handle.describe()).runId;
    await handle.terminate('operator test');
    const paused = await transition(h, rec, e.id, 'pause');
    expect(paused.statusCode).toBe(200);
    expect(paused.json().event).toMatchObject({ status: 'paused', started_at: live.started_at });
    const desc = await h.temporal.workflow.getHandle(liveEventWorkflowId(e.id)).describe();
    expect(desc.runId).not.toBe(first);
    expect(desc.status.name).toBe('RUNNING');
    expect((await transition(h, rec, e.id, 'end')).statusCode).toBe(200);
  });

  it(
    'ending drains the event: a seeker waiting for it ends expired with reason "event ended"; ' +
      'other queues are untouched',
    async () => {
      const rec = await h.recruiter();
      // No jobs: the matchmaker has nothing to offer, so the entries stay waiting until the end.
      const e = await createEvent(h, rec);
      expect((await transition(h, rec, e.id, 'go-live')).statusCode).toBe(200);

      const s1 = await h.seeker();
      const s2 = await h.seeker();
      const other = await h.seeker();
      const j1 = await h.call({
        method: 'POST',
        url: '/api/v1/queue/join',
        token: s1.token,
        payload: { live_event_slug: e.slug },
      });
      expect(j1.statusCode).toBe(200);
      const j2 = await h.call({
        method: 'POST',
        url: '/api/v1/queue/join',
        token: s2.token,
        payload: { live_event_slug: e.slug },
      });
      expect(j2.statusCode).toBe(200);
      const j3 = await h.call({ method: 'POST', url: '/api/v1/queue/join', token: other.token });
      expect(j3.statusCode).toBe(200);

      const counted = await h.call({ method: 'GET', url: `/api/v1/team/live-events/${e.id}`, token: rec.token });
      expect(counted.json().event.candidates_joined).toBe(2);

      expect((await transition(h, rec, e.id, 'end')).statusCode).toBe(200);
      for (const s of [s1, s2]) {
        const entry = await eventually(async () => {
          const r = (await h.call({ method: 'GET', url: '/api/v1/queue/status', token: s.token })).json();
          return r.queue_entry?.status === 'expired' && r.queue_entry;
        });
        expect(entry.live_event_slug).toBe(e.slug);
        const row = await h.knex('queue_entries').where({ id: entry.id }).first();
        expect(row.end_reason).toBe('event ended');
      }
      const result = await h.temporal.workflow.getHandle(liveEventWorkflowId(e.id)).result();
      expect(result.drained).toBe(true);
      // drainedEntries is not asserted: the matchmaker's straggler sweep may tell the entries before
      // the drain reads them (both paths end them the same way, checked above).
      const untouched = (await h.call({ method: 'GET', url: '/api/v1/queue/status', token: other.token })).json();
      expect(untouched.queue_entry.status).toBe('waiting');
      // The ended event takes no new joins.
      const late = await h.call({
        method: 'POST',
        url: '/api/v1/queue/join',
        token: (await h.seeker()).token,
        payload: { live_event_slug: e.slug },
      });
      expect(late.statusCode).toBe(404);
    },
  );

  it('isolates tenants (another team → 404) and enforces auth, scopes and the recruiter role', async () => {
    const owner = await h.recruiter();
    const stranger = await h.recruiter();
    const e = await createEvent(h, owner);
    const job = await createJob(h, owner, e.id);

    const notFound = async (method: 'GET' | 'PATCH' | 'POST', url: string, payload?: Record<string, unknown>) => {
      const r = await h.call({ method, url, token: stranger.token, payload });
      expect(r.statusCode).toBe(404);
      expect(r.json().code).toBe('NOT_FOUND');
    };
    await notFound('GET', `/api/v1/team/live-events/${e.id}`);
    await notFound('PATCH', `/api/v1/team/live-events/${e.id}`, { headline: 'mine now' });
    for (const move of ['go-live', 'pause', 'resume', 'end'])
      await notFound('POST', `/api/v1/live-events/${e.id}/${move}`);
    await notFound('GET', `/api/v1/jobs/${job.id}`);
    await notFound('PATCH', `/api/v1/jobs/${job.id}`, { title: 'x' });
    await notFound('POST', `/api/v1/jobs/${job.id}/close`);
    await notFound('POST', '/api/v1/jobs', { live_event_id: e.id, title: 'x', essential_skills: ['Go'] });
    expect(
      (await h.call({ method: 'GET', url: '/api/v1/team/live-events', token: stranger.token })).json().data,
    ).toEqual([]);
    expect((await h.call({ method: 'GET', url: '/api/v1/jobs', token: stranger.token })).json().data).toEqual([]);
    // Nothing changed for the owner.
    expect((await h.knex('live_events').where({ id: e.id }).first()).status).toBe('draft');
    expect((await h.knex('live_events').where({ id: e.id }).first()).headline).toBeNull();

    const noAuth = await h.call({ method: 'POST', url: `/api/v1/live-events/${e.id}/go-live` });
    expect(noAuth.statusCode).toBe(401);
    expect(noAuth.json().code).toBe('UNAUTHENTICATED');
    expect((await h.call({ method: 'GET', url: '/api/v1/team/live-events' })).statusCode).toBe(401);

    const readOnly = await owner.tokenWith(['events:read', 'jobs:read']);
    const noScope = await h.call({ method: 'POST', url: `/api/v1/live-events/${e.id}/go-live`, token: readOnly });
    expect(noScope.statusCode).toBe(403);
    expect(noScope.json()).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required_scope: 'events:write' } });
    const noJobScope = await h.call({
      method: 'POST',
      url: '/api/v1/jobs',
      token: readOnly,
      payload: { live_event_id: e.id, title: 'x', essential_skills: ['Go'] },
    });
    expect(noJobScope.json()).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required_scope: 'jobs:write' } });
    const noRead = await h.call({
      method: 'GET',
      url: '/api/v1/team/live-events',
      token: await owner.tokenWith(['jobs:read']),
    });
    expect(noRead.json()).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required_scope: 'events:read' } });

    const seeker = await h.seeker();
    const asSeeker = await h.call({
      method: 'POST',
      url: '/api/v1/live-events',
      token: seeker.token,
      payload: { slug: uniqueSlug() },
    });
    expect(asSeeker.statusCode).toBe(403);
    expect(asSeeker.json().code).toBe('RECRUITER_TEAM_REQUIRED');

    const badId = await h.call({ method: 'POST', url: '/api/v1/live-events/not-a-uuid/go-live', token: owner.token });
    expect(badId.statusCode).toBe(400);
    expect(badId.json().code).toBe('VALIDATION');
    expect((await transition(h, owner, randomUUID(), 'go-live')).statusCode).toBe(404);
  });
});
