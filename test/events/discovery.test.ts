import { createHarness, type Harness, type TestUser } from '../helpers/harness';
import { createEvent, createJob, liveEvent, transition, uniqueSlug } from './helpers';

type Job = { id: string; title: string; event_slug: string; skill_overlap: number; [k: string]: unknown };

describe('public discovery: live-now, jobs search, event detail, public list', () => {
  let h: Harness;
  let rec: TestUser;
  let rec2: TestUser;
  const ev: Record<string, { id: string; slug: string }> = {};
  const job: Record<string, { id: string }> = {};

  const search = async (qs: string) => {
    const r = await h.call({ method: 'GET', url: `/api/v1/jobs/search${qs ? `?${qs}` : ''}` });
    return r;
  };
  const titles = async (qs: string) => {
    const r = await search(qs);
    expect(r.statusCode).toBe(200);
    return (r.json().jobs as Job[]).map((j) => j.title);
  };

  beforeAll(async () => {
    h = await createHarness({ env: { PUBLIC_CACHE_TTL_MS: '0' } });
    rec = await h.recruiter();
    rec2 = await h.recruiter();
    // Visible: A (live, open), B (paused, open; listed but its jobs are not searchable).
    ev.A = await liveEvent(h, rec, {
      company_name: 'Acme',
      headline: 'Acme is hiring',
      logo_url: 'https://acme.example/logo.png',
      accent_color: '#112233',
      planned_end_at: '2031-01-01T00:00:00Z',
    });
    ev.B = await liveEvent(h, rec2, { company_name: 'Beta' });
    // Hidden: C (live, private), D (draft, open), E (ended, open).
    ev.C = await liveEvent(h, rec, { company_name: 'Secret', visibility: 'private' });
    ev.D = await createEvent(h, rec, { company_name: 'Drafty' });
    ev.E = await liveEvent(h, rec2, { company_name: 'Old' });

    // Jobs are created oldest first: A1 … A6 (newest).
    job.A1 = await createJob(h, rec, ev.A.id, {
      title: 'A1 Backend',
      essential_skills: ['TypeScript', 'PostgreSQL'],
      bonus_skills: ['Temporal'],
      remote_preference: 'remote',
      location: 'Berlin, Germany',
      salary_min: 60000,
      salary_max: 90000,
    });
    job.A2 = await createJob(h, rec, ev.A.id, {
      title: 'A2 Frontend',
      essential_skills: ['TypeScript', 'React'],
      remote_preference: 'hybrid',
      location: 'London',
      salary_min: 50000,
      salary_max: 70000,
    });
    job.A3 = await createJob(h, rec, ev.A.id, {
      title: 'A3 Data',
      essential_skills: ['Python'],
      bonus_skills: [' postgresql '],
      remote_preference: 'onsite',
      location: 'New Berlin, WI',
      salary_max: null,
    });
    job.A4 = await createJob(h, rec, ev.A.id, { title: 'A4 Closed', essential_skills: ['TypeScript'] });
    job.A5 = await createJob(h, rec, ev.A.id, {
      title: 'A5 100%_Remote',
      essential_skills: ['Go'],
      location: '100%_anywhere',
    });
    job.A6 = await createJob(h, rec, ev.A.id, {
      title: 'A6 Fullstack',
      essential_skills: ['typescript'],
      bonus_skills: ['React', 'PostgreSQL'],
      salary_min: 80000,
      salary_max: 120000,
    });
    expect(
      (await h.call({ method: 'POST', url: `/api/v1/jobs/${job.A4.id}/close`, token: rec.token })).statusCode,
    ).toBe(200);
    await createJob(h, rec2, ev.B.id, { title: 'B1 Paused', essential_skills: ['TypeScript'] });
    await createJob(h, rec, ev.C.id, { title: 'C1 Private', essential_skills: ['TypeScript'] });
    await createJob(h, rec, ev.D.id, { title: 'D1 Draft', essential_skills: ['TypeScript'] });
    await createJob(h, rec2, ev.E.id, { title: 'E1 Ended', essential_skills: ['TypeScript'] });
    expect((await transition(h, rec2, ev.B.id, 'pause')).statusCode).toBe(200);
    expect((await transition(h, rec2, ev.E.id, 'end')).statusCode).toBe(200);
  });
  afterAll(async () => h?.close());

  it(
    'live-now lists live and paused open-invite events with every LiveEvent field, and hides ' +
      'private, draft and ended ones',
    async () => {
      const r = await h.call({ method: 'GET', url: '/api/v1/live-events/live-now' });
      expect(r.statusCode).toBe(200);
      expect(r.headers['cache-control']).toMatch(/max-age=15\b/);
      const body = r.json();
      expect(Date.parse(body.generated_at)).not.toBeNaN();
      const slugs = body.events.map((e: { slug: string }) => e.slug);
      expect(slugs.sort()).toEqual([ev.A.slug, ev.B.slug].sort());
      const a = body.events.find((e: { slug: string }) => e.slug === ev.A.slug);
      expect(a).toEqual({
        slug: ev.A.slug,
        status: 'live',
        company_name: 'Acme',
        logo_url: 'https://acme.example/logo.png',
        accent_color: '#112233',
        headline: 'Acme is hiring',
        description: null,
        started_at: expect.any(String),
        ends_at: '2031-01-01T00:00:00.000Z',
        candidates_joined: 0,
        matches_made: 0,
        job_titles: ['A6 Fullstack', 'A5 100%_Remote', 'A3 Data', 'A2 Frontend', 'A1 Backend'],
        join_url: `http://jobfair.test/events/${ev.A.slug}`,
      });
      expect(body.events.find((e: { slug: string }) => e.slug === ev.B.slug).status).toBe('paused');
    },
  );

  it(
    'jobs/search without filters: only open jobs of live open-invite events, newest first, ' + 'default limit 20',
    async () => {
      const r = await search('');
      expect(r.statusCode).toBe(200);
      expect(r.headers['cache-control']).toMatch(/max-age=30\b/);
      const jobs = r.json().jobs as Job[];
      expect(jobs.map((j) => j.title)).toEqual([
        'A6 Fullstack',
        'A5 100%_Remote',
        'A3 Data',
        'A2 Frontend',
        'A1 Backend',
      ]);
      expect(jobs[0]).toEqual({
        id: job.A6.id,
        title: 'A6 Fullstack',
        company_name: 'Acme',
        logo_url: 'https://acme.example/logo.png',
        essential_skills: ['typescript'],
        bonus_skills: ['React', 'PostgreSQL'],
        experience_min: 0,
        salary_min: 80000,
        salary_max: 120000,
        location: null,
        remote_preference: null,
        event_slug: ev.A.slug,
        join_url: `http://jobfair.test/events/${ev.A.slug}`,
        skill_overlap: 0,
      });
    },
  );

  it(
    'skills: overlap with essential or bonus skills, case-insensitive and trimmed, ordered by ' + 'overlap then newest',
    async () => {
      expect(await titles('skills=TypeScript')).toEqual(['A6 Fullstack', 'A2 Frontend', 'A1 Backend']);
      // A3 has postgresql only as a (space-padded) bonus skill.
      expect(await titles('skills=%20POSTGRESQL%20')).toEqual(['A6 Fullstack', 'A3 Data', 'A1 Backend']);
      const r = await search('skills=typescript,%20postgresql,react,,TYPESCRIPT');
      const jobs = r.json().jobs as Job[];
      expect(jobs.map((j) => [j.title, j.skill_overlap])).toEqual([
        ['A6 Fullstack', 3],
        ['A2 Frontend', 2],
        ['A1 Backend', 2],
        ['A3 Data', 1],
      ]);
      expect(await titles('skills=cobol')).toEqual([]);
      // The limit cuts across overlap tiers in order; an empty top tier (nobody lists all four) is skipped.
      expect(await titles('skills=typescript,postgresql,react&limit=2')).toEqual(['A6 Fullstack', 'A2 Frontend']);
      expect(await titles('skills=typescript,postgresql,react&limit=3')).toEqual([
        'A6 Fullstack',
        'A2 Frontend',
        'A1 Backend',
      ]);
      expect(await titles('skills=typescript,postgresql,react,cobol')).toEqual([
        'A6 Fullstack',
        'A2 Frontend',
        'A1 Backend',
        'A3 Data',
      ]);
    },
  );

  it(
    'remote, location (case-insensitive substring, wildcards literal), salary_min, limit, and ' + 'filters combined',
    async () => {
      expect(await titles('remote=remote')).toEqual(['A1 Backend']);
      expect(await titles('remote=hybrid')).toEqual(['A2 Frontend']);
      expect(await titles('remote=onsite')).toEqual(['A3 Data']);
      expect(await titles('location=berlin')).toEqual(['A3 Data', 'A1 Backend']);
      expect(await titles('location=LONDON')).toEqual(['A2 Frontend']);
      expect(await titles('location=100%25_')).toEqual(['A5 100%_Remote']);
      expect(await titles('location=_')).toEqual(['A5 100%_Remote']);
      expect(await titles('salary_min=90000')).toEqual(['A6 Fullstack', 'A1 Backend']);
      expect(await titles('salary_min=90001')).toEqual(['A6 Fullstack']);
      expect(await titles('salary_min=0')).toEqual(['A6 Fullstack', 'A2 Frontend', 'A1 Backend']);
      expect(await titles('limit=2')).toEqual(['A6 Fullstack', 'A5 100%_Remote']);
      expect(await titles('limit=50')).toHaveLength(5);
      expect(await titles('skills=typescript&location=berlin&remote=remote&salary_min=85000')).toEqual(['A1 Backend']);
      expect(await titles('skills=typescript&remote=onsite')).toEqual([]);
    },
  );

  it('jobs/search refuses out-of-range and unknown parameters with 400 VALIDATION naming them', async () => {
    const bad = async (qs: string, path: string) => {
      const r = await search(qs);
      expect(r.statusCode).toBe(400);
      expect(r.json().code).toBe('VALIDATION');
      expect(
        r
          .json()
          .details.issues.map((i: { path: string }) => i.path)
          .join(' '),
      ).toContain(path);
    };
    await bad('limit=0', 'query.limit');
    await bad('limit=51', 'query.limit');
    await bad('limit=abc', 'query.limit');
    await bad('limit=2.5', 'query.limit');
    await bad('salary_min=-1', 'query.salary_min');
    await bad('salary_min=ten', 'query.salary_min');
    await bad('remote=fully_remote', 'query.remote');
    await bad('skills=,,', 'query.skills');
    await bad(`skills=${Array.from({ length: 21 }, (_, i) => `s${i}`).join(',')}`, 'query.skills');
    await bad('location=', 'query.location');
    await bad('page=2', 'query.page');
    await bad('skill=go', 'query.skill');
  });

  it(
    'events/{slug}: the event and its open jobs for open-invite live/paused events; everything ' +
      'else 404 without leaking existence',
    async () => {
      const r = await h.call({ method: 'GET', url: `/api/v1/events/${ev.A.slug}` });
      expect(r.statusCode).toBe(200);
      expect(r.json().event.slug).toBe(ev.A.slug);
      expect(r.json().jobs.map((j: Job) => j.title)).toEqual([
        'A6 Fullstack',
        'A5 100%_Remote',
        'A3 Data',
        'A2 Frontend',
        'A1 Backend',
      ]);
      const paused = await h.call({ method: 'GET', url: `/api/v1/events/${ev.B.slug}` });
      expect(paused.statusCode).toBe(200);
      expect(paused.json()).toMatchObject({ event: { status: 'paused' }, jobs: [{ title: 'B1 Paused' }] });

      const unknown = await h.call({ method: 'GET', url: `/api/v1/events/${uniqueSlug('nope')}` });
      expect(unknown.statusCode).toBe(404);
      for (const hidden of [ev.C, ev.D, ev.E]) {
        const res = await h.call({ method: 'GET', url: `/api/v1/events/${hidden.slug}` });
        expect(res.statusCode).toBe(404);
        expect(res.json().code).toBe('NOT_FOUND');
        // Same message shape as an unknown slug: nothing tells a hidden event from a missing one.
        expect(res.json().error).toBe(`live event ${hidden.slug} was not found`);
      }
    },
  );

  it('GET /live-events pages through the public events with the platform envelope', async () => {
    const p1 = await h.call({ method: 'GET', url: '/api/v1/live-events?limit=1' });
    expect(p1.statusCode).toBe(200);
    expect(p1.json()).toMatchObject({ has_more: true, next_cursor: expect.any(String) });
    expect(p1.json().data).toHaveLength(1);
    const p2 = await h.call({
      method: 'GET',
      url: `/api/v1/live-events?limit=1&cursor=${encodeURIComponent(p1.json().next_cursor)}`,
    });
    expect(p2.json().has_more).toBe(false);
    expect(p2.json().next_cursor).toBeUndefined();
    const slugs = [...p1.json().data, ...p2.json().data].map((e: { slug: string }) => e.slug);
    // Newest created first: B was created after A.
    expect(slugs).toEqual([ev.B.slug, ev.A.slug]);
    expect((await h.call({ method: 'GET', url: '/api/v1/live-events?limit=101' })).statusCode).toBe(400);
  });

  it(
    'reflects changes: a closed job leaves search; an ended event leaves every public answer; ' +
      'pause keeps the event listed but drops its jobs',
    async () => {
      const r = await h.recruiter();
      const e = await liveEvent(h, r, { company_name: 'Gamma' });
      const j = await createJob(h, r, e.id, { title: 'G1 Rust', essential_skills: ['Rust'] });
      expect(await titles('skills=rust')).toEqual(['G1 Rust']);
      await transition(h, r, e.id, 'pause');
      expect(await titles('skills=rust')).toEqual([]);
      const listed = (await h.call({ method: 'GET', url: '/api/v1/live-events/live-now' }))
        .json()
        .events.map((x: { slug: string }) => x.slug);
      expect(listed).toContain(e.slug);
      await transition(h, r, e.id, 'resume');
      expect(await titles('skills=rust')).toEqual(['G1 Rust']);
      await h.call({ method: 'POST', url: `/api/v1/jobs/${j.id}/close`, token: r.token });
      expect(await titles('skills=rust')).toEqual([]);
      await transition(h, r, e.id, 'end');
      const after = (await h.call({ method: 'GET', url: '/api/v1/live-events/live-now' }))
        .json()
        .events.map((x: { slug: string }) => x.slug);
      expect(after).not.toContain(e.slug);
      expect((await h.call({ method: 'GET', url: `/api/v1/events/${e.slug}` })).statusCode).toBe(404);
    },
  );
});

describe('public discovery: the in-process short cache', () => {
  let h: Harness;
  beforeAll(async () => {
    // Strict version reads (0): a write made elsewhere is seen by the very next read (the default 50 ms bound is unit-tested).
    h = await createHarness({ env: { PUBLIC_CACHE_TTL_MS: '60000', PUBLIC_CACHE_VERSION_STALE_MS: '0' } });
  });
  afterAll(async () => h?.close());

  it(
    'answers a repeated (normalised) query from memory until a write, made by any process, ' + 'changes the data',
    async () => {
      const rec = await h.recruiter();
      const e = await liveEvent(h, rec, { company_name: 'Cachey' });
      await createJob(h, rec, e.id, { title: 'Cached job', essential_skills: ['Elixir', 'Erlang'] });

      const first = await h.call({ method: 'GET', url: '/api/v1/jobs/search?skills=elixir,erlang' });
      expect(first.headers['x-cache']).toBe('miss');
      // The same question spelled differently is the same cache entry.
      const second = await h.call({ method: 'GET', url: '/api/v1/jobs/search?skills=%20ERLANG,elixir' });
      expect(second.headers['x-cache']).toBe('hit');
      expect(second.body).toBe(first.body);

      // A change behind this API process's back (another replica, the worker, SQL) is seen by the
      // next read: the write bumped the data version in its own transaction.
      await h.knex('jobs').where({ live_event_id: e.id }).update({ title: 'Renamed directly' });
      const renamed = await h.call({ method: 'GET', url: '/api/v1/jobs/search?skills=elixir,erlang' });
      expect(renamed.headers['x-cache']).toBe('miss');
      expect(renamed.json().jobs.map((j: { title: string }) => j.title)).toEqual(['Renamed directly']);
      expect(
        (await h.call({ method: 'GET', url: '/api/v1/jobs/search?skills=elixir,erlang' })).headers['x-cache'],
      ).toBe('hit');

      // A write through this process clears it too.
      const j2 = await createJob(h, rec, e.id, { title: 'Second', essential_skills: ['Elixir'] });
      const fresh = await h.call({ method: 'GET', url: '/api/v1/jobs/search?skills=elixir,erlang' });
      expect(fresh.headers['x-cache']).toBe('miss');
      expect(fresh.json().jobs.map((j: { title: string }) => j.title)).toEqual(['Renamed directly', 'Second']);
      expect(j2.id).toBeDefined();

      const live1 = await h.call({ method: 'GET', url: '/api/v1/live-events/live-now' });
      const live2 = await h.call({ method: 'GET', url: '/api/v1/live-events/live-now' });
      expect([live1.headers['x-cache'], live2.headers['x-cache']]).toEqual(['miss', 'hit']);
      await transition(h, rec, e.id, 'end');
      const live3 = await h.call({ method: 'GET', url: '/api/v1/live-events/live-now' });
      expect(live3.headers['x-cache']).toBe('miss');
      expect(live3.json().events.map((x: { slug: string }) => x.slug)).not.toContain(e.slug);
    },
  );

  it(
    'no stale answer after a job or event change made outside this process: every discovery ' +
      'route reads the new data next',
    async () => {
      const rec = await h.recruiter();
      const e = await liveEvent(h, rec, { company_name: 'Versioned', headline: 'Before' });
      const j = await createJob(h, rec, e.id, {
        title: 'Versioned job',
        essential_skills: ['Clojure'],
        location: 'Porto',
      });
      const urls = [
        '/api/v1/jobs/search?skills=clojure',
        '/api/v1/live-events/live-now',
        `/api/v1/events/${e.slug}`,
        '/api/v1/live-events?limit=50',
      ];
      const warm = async () => {
        for (const url of urls) {
          await h.call({ method: 'GET', url });
          expect((await h.call({ method: 'GET', url })).headers['x-cache']).toBe('hit');
        }
      };
      const read = async (url: string) => {
        const r = await h.call({ method: 'GET', url });
        expect(r.statusCode).toBe(200);
        return r.json();
      };
      const eventOf = (body: {
        events?: Array<{ slug: string }>;
        data?: Array<{ slug: string }>;
        event?: { slug: string };
      }) =>
        (body.event ?? [...(body.events ?? []), ...(body.data ?? [])].find((x) => x.slug === e.slug)) as
          { headline: string; job_titles: string[] } | undefined;

      // Event description changed by SQL (as another replica would): every event answer shows it.
      await warm();
      await h.knex('live_events').where({ id: e.id }).update({ headline: 'After' });
      for (const url of urls.slice(1)) expect(eventOf(await read(url))?.headline).toBe('After');

      // A job written by SQL: the search and the event's jobs and titles show it at once.
      await warm();
      await h.knex('jobs').insert({
        team_id: (await h.knex('live_events').where({ id: e.id }).first('team_id')).team_id,
        live_event_id: e.id,
        title: 'Direct job',
        essential_skills: ['Clojure'],
      });
      expect((await read(urls[0])).jobs.map((x: { title: string }) => x.title)).toEqual([
        'Direct job',
        'Versioned job',
      ]);
      expect((await read(urls[2])).jobs.map((x: { title: string }) => x.title)).toEqual([
        'Direct job',
        'Versioned job',
      ]);
      expect(eventOf(await read(urls[1]))?.job_titles).toEqual(['Direct job', 'Versioned job']);

      // A job closed by SQL leaves the search.
      await warm();
      await h.knex('jobs').where({ id: j.id }).update({ status: 'closed' });
      expect((await read(urls[0])).jobs.map((x: { title: string }) => x.title)).toEqual(['Direct job']);

      // The event ended by SQL (as the worker's projection does): gone from every answer, 404 by slug.
      await warm();
      await h.knex('live_events').where({ id: e.id }).update({ status: 'ended', ended_at: h.knex.fn.now() });
      expect((await read(urls[0])).jobs).toEqual([]);
      expect(eventOf(await read(urls[1]))).toBeUndefined();
      expect(eventOf(await read(urls[3]))).toBeUndefined();
      expect((await h.call({ method: 'GET', url: urls[2] })).statusCode).toBe(404);
    },
  );

  it('a change of live counters alone (a join) does not move the data version', async () => {
    const before = (await h.knex('discovery_version').first('version')).version;
    const ev = await h.knex('live_events').first('id');
    await h
      .knex('live_events')
      .where({ id: ev.id })
      .update({ candidates_joined: h.knex.raw('candidates_joined + 1'), updated_at: h.knex.fn.now() });
    expect((await h.knex('discovery_version').first('version')).version).toBe(before);
    await h.knex('live_events').where({ id: ev.id }).update({ description: 'moved' });
    expect(Number((await h.knex('discovery_version').first('version')).version)).toBe(Number(before) + 1);
  });
});
