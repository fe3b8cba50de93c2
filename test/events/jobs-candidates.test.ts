import { createHarness, eventually, type Harness } from '../helpers/harness';
import { createEvent, createJob, liveEvent, transition } from './helpers';

describe('recruiter jobs and candidates', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      env: { PUBLIC_CACHE_TTL_MS: '0', QUEUE_ENTRY_TTL_MS: '600000', TEAM_INVITE_TTL_MS: '600000' },
    });
  });
  afterAll(async () => h?.close());

  it('jobs: create, read, list with filters, update, close (idempotent); salary and skills rules', async () => {
    const rec = await h.recruiter();
    const e1 = await createEvent(h, rec);
    const e2 = await createEvent(h, rec);
    const created = await h.call({
      method: 'POST',
      url: '/api/v1/jobs',
      token: rec.token,
      payload: {
        live_event_id: e1.id,
        title: ' Platform Engineer ',
        essential_skills: ['TypeScript', ' typescript', 'Go '],
        bonus_skills: ['k8s'],
        experience_min: 3,
        salary_min: 70000,
        salary_max: 90000,
        location: 'Remote EU',
        remote_preference: 'remote',
      },
    });
    expect(created.statusCode).toBe(201);
    const job = created.json().job;
    expect(job).toMatchObject({
      title: 'Platform Engineer',
      essential_skills: ['TypeScript', 'Go'],
      bonus_skills: ['k8s'],
      experience_min: 3,
      status: 'open',
      live_event_id: e1.id,
      event_slug: e1.slug,
      event_status: 'draft',
      closed_at: null,
      join_url: `http://jobfair.test/events/${e1.slug}`,
    });
    await createJob(h, rec, e2.id, { title: 'Other event' });

    expect((await h.call({ method: 'GET', url: `/api/v1/jobs/${job.id}`, token: rec.token })).json().job.id).toBe(
      job.id,
    );
    const byEvent = await h.call({ method: 'GET', url: `/api/v1/jobs?live_event_id=${e1.id}`, token: rec.token });
    expect(byEvent.json().data.map((j: { id: string }) => j.id)).toEqual([job.id]);
    expect((await h.call({ method: 'GET', url: '/api/v1/jobs', token: rec.token })).json().data).toHaveLength(2);

    const bad = async (method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown>, path: string) => {
      const r = await h.call({ method, url, token: rec.token, payload });
      expect(r.statusCode).toBe(400);
      expect(r.json().code).toBe('VALIDATION');
      expect(
        r
          .json()
          .details.issues.map((i: { path: string }) => i.path)
          .join(' '),
      ).toContain(path);
    };
    await bad(
      'POST',
      '/api/v1/jobs',
      { live_event_id: e1.id, title: 'x', essential_skills: ['Go'], salary_min: 10, salary_max: 5 },
      'body.salary_min',
    );
    await bad(
      'POST',
      '/api/v1/jobs',
      { live_event_id: e1.id, title: 'x', essential_skills: [] },
      'body.essential_skills',
    );
    await bad(
      'POST',
      '/api/v1/jobs',
      { live_event_id: e1.id, title: 'x', essential_skills: ['Go'], remote_preference: 'fully_remote' },
      'body.remote_preference',
    );
    await bad(
      'POST',
      '/api/v1/jobs',
      { live_event_id: e1.id, title: 'x', essential_skills: ['Go'], salary_min: -1 },
      'body.salary_min',
    );
    await bad(
      'POST',
      '/api/v1/jobs',
      { live_event_id: e1.id, title: 'x', essential_skills: ['Go'], team_id: rec.teamId },
      'body.team_id',
    );
    await bad('POST', '/api/v1/jobs', { title: 'x', essential_skills: ['Go'] }, 'body.live_event_id');
    // The stored salary_max (90000) bounds a new salary_min.
    await bad('PATCH', `/api/v1/jobs/${job.id}`, { salary_min: 95000 }, 'body.salary_min');
    await bad('PATCH', `/api/v1/jobs/${job.id}`, {}, 'body');

    const patched = await h.call({
      method: 'PATCH',
      url: `/api/v1/jobs/${job.id}`,
      token: rec.token,
      payload: { salary_max: 120000, salary_min: 95000, location: null },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().job).toMatchObject({ salary_min: 95000, salary_max: 120000, location: null });

    const closed = await h.call({ method: 'POST', url: `/api/v1/jobs/${job.id}/close`, token: rec.token });
    expect(closed.statusCode).toBe(200);
    expect(closed.json().job.status).toBe('closed');
    expect(closed.json().job.closed_at).not.toBeNull();
    const again = await h.call({ method: 'POST', url: `/api/v1/jobs/${job.id}/close`, token: rec.token });
    expect(again.statusCode).toBe(200);
    expect(again.json().job.closed_at).toBe(closed.json().job.closed_at);
    const edit = await h.call({
      method: 'PATCH',
      url: `/api/v1/jobs/${job.id}`,
      token: rec.token,
      payload: { title: 'x' },
    });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().code).toBe('JOB_CLOSED');
    expect(
      (await h.call({ method: 'GET', url: '/api/v1/jobs?status=closed', token: rec.token }))
        .json()
        .data.map((j: { id: string }) => j.id),
    ).toEqual([job.id]);

    const scopeless = await rec.tokenWith(['events:read']);
    expect((await h.call({ method: 'GET', url: '/api/v1/jobs', token: scopeless })).json()).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      details: { required_scope: 'jobs:read' },
    });
    expect((await h.call({ method: 'GET', url: '/api/v1/jobs' })).statusCode).toBe(401);
  });

  it(
    "candidates: seekers who joined the team's events, with profile summary; notes and " +
      'ratings; other teams see nothing',
    async () => {
      const rec = await h.recruiter();
      const other = await h.recruiter();
      // No jobs: nobody is matched, the entries stay waiting.
      const e = await liveEvent(h, rec);
      const s1 = await h.seeker({
        profile: {
          full_name: 'Ada L',
          title: 'Engineer',
          skills: ['TypeScript'],
          experience_years: 7,
          location: 'London',
        },
      });
      const s2 = await h.seeker();
      const outsider = await h.seeker();
      for (const s of [s1, s2])
        expect(
          (
            await h.call({
              method: 'POST',
              url: '/api/v1/queue/join',
              token: s.token,
              payload: { live_event_slug: e.slug },
            })
          ).statusCode,
        ).toBe(200);
      expect((await h.call({ method: 'POST', url: '/api/v1/queue/join', token: outsider.token })).statusCode).toBe(200);

      const list = await h.call({ method: 'GET', url: '/api/v1/candidates?limit=1', token: rec.token });
      expect(list.statusCode).toBe(200);
      expect(list.json().data.map((c: { user_id: string }) => c.user_id)).toEqual([s2.user.id]);
      const rest = await h.call({
        method: 'GET',
        url: `/api/v1/candidates?limit=10&cursor=${encodeURIComponent(list.json().next_cursor)}`,
        token: rec.token,
      });
      expect(rest.json()).toMatchObject({ has_more: false });
      expect(rest.json().data).toEqual([
        expect.objectContaining({
          user_id: s1.user.id,
          full_name: 'Ada L',
          title: 'Engineer',
          skills: ['TypeScript'],
          experience_years: 7,
          location: 'London',
          event_slugs: [e.slug],
          matches_count: 0,
          note: null,
        }),
      ]);

      const detail = await h.call({ method: 'GET', url: `/api/v1/candidates/${s1.user.id}`, token: rec.token });
      expect(detail.statusCode).toBe(200);
      expect(detail.json()).toMatchObject({ candidate: { user_id: s1.user.id }, matches: [] });

      const note = await h.call({
        method: 'PUT',
        url: `/api/v1/candidates/${s1.user.id}/note`,
        token: rec.token,
        payload: { note: 'Strong on workflows', rating: 5 },
      });
      expect(note.statusCode).toBe(200);
      expect(note.json().note).toMatchObject({ note: 'Strong on workflows', rating: 5 });
      const replaced = await h.call({
        method: 'PUT',
        url: `/api/v1/candidates/${s1.user.id}/note`,
        token: rec.token,
        payload: { note: 'Second look' },
      });
      expect(replaced.json().note).toMatchObject({ note: 'Second look', rating: null });
      expect(
        (await h.call({ method: 'GET', url: `/api/v1/candidates/${s1.user.id}`, token: rec.token })).json().candidate
          .note,
      ).toMatchObject({ note: 'Second look', rating: null });
      for (const rating of [0, 6, 2.5]) {
        const r = await h.call({
          method: 'PUT',
          url: `/api/v1/candidates/${s1.user.id}/note`,
          token: rec.token,
          payload: { note: 'x', rating },
        });
        expect(r.statusCode).toBe(400);
        expect(r.json().details.issues[0].path).toBe('body.rating');
      }

      // Not a candidate of this team / of another team → 404; lists are per team.
      expect(
        (await h.call({ method: 'GET', url: `/api/v1/candidates/${outsider.user.id}`, token: rec.token })).statusCode,
      ).toBe(404);
      expect(
        (
          await h.call({
            method: 'PUT',
            url: `/api/v1/candidates/${outsider.user.id}/note`,
            token: rec.token,
            payload: { note: 'x' },
          })
        ).statusCode,
      ).toBe(404);
      expect(
        (await h.call({ method: 'GET', url: `/api/v1/candidates/${s1.user.id}`, token: other.token })).statusCode,
      ).toBe(404);
      expect(
        (
          await h.call({
            method: 'PUT',
            url: `/api/v1/candidates/${s1.user.id}/note`,
            token: other.token,
            payload: { note: 'mine' },
          })
        ).statusCode,
      ).toBe(404);
      expect((await h.call({ method: 'GET', url: '/api/v1/candidates', token: other.token })).json().data).toEqual([]);
      const readOnly = await rec.tokenWith(['candidates:read']);
      expect(
        (
          await h.call({
            method: 'PUT',
            url: `/api/v1/candidates/${s1.user.id}/note`,
            token: readOnly,
            payload: { note: 'x' },
          })
        ).json(),
      ).toMatchObject({
        code: 'INSUFFICIENT_SCOPE',
        details: { required_scope: 'candidates:write' },
      });
      expect((await h.call({ method: 'GET', url: '/api/v1/candidates', token: s1.token })).json().code).toBe(
        'RECRUITER_TEAM_REQUIRED',
      );
      await transition(h, rec, e.id, 'end');
    },
  );

  it("candidates: a seeker matched with one of the team's jobs shows the match history", async () => {
    const rec = await h.recruiter();
    const e = await liveEvent(h, rec, { interview_slots: 2 });
    const job = await createJob(h, rec, e.id, {
      title: 'Workflow Engineer',
      essential_skills: ['TypeScript', 'PostgreSQL'],
    });
    const s = await h.seeker({ profile: { skills: ['TypeScript', 'PostgreSQL'] } });
    expect(
      (
        await h.call({
          method: 'POST',
          url: '/api/v1/queue/join',
          token: s.token,
          payload: { live_event_slug: e.slug },
        })
      ).statusCode,
    ).toBe(200);
    // The real matchmaker makes the match.
    await eventually(
      async () => (await h.knex('matches').where({ seeker_user_id: s.user.id }).first()) ?? null,
      20_000,
    );
    const detail = await h.call({ method: 'GET', url: `/api/v1/candidates/${s.user.id}`, token: rec.token });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().candidate.matches_count).toBe(1);
    expect(detail.json().matches).toEqual([
      expect.objectContaining({ job_id: job.id, job_title: 'Workflow Engineer', event_slug: e.slug }),
    ]);
    const ev = await h.call({ method: 'GET', url: `/api/v1/team/live-events/${e.id}`, token: rec.token });
    // matches_made counts every match of the event (a seeker waiting for "any event" may be matched here too).
    const [{ count }] = await h
      .knex('matches')
      .where({ live_event_id: e.id })
      .count<{ count: number }[]>({ count: '*' });
    expect(count).toBeGreaterThanOrEqual(1);
    expect(ev.json().event).toMatchObject({ candidates_joined: 1, matches_made: count });
  });
});
