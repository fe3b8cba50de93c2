import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import { createHarness, type Harness } from '../helpers/harness';
import { createJob, createLiveEvent, type EventFixture } from '../matches/fixtures';
import { type MatchOfferInsert, type MatchmakingRepository } from '#db/matchmaking/matchmaking-repository';
import { createMatchmakingActivities } from '#activities/matchmaking/matchmaking-activities';

/**
 * The matchmaker's locked part (docs/decisions/0010-matchmaker.md): planning reads without locks;
 * `holdSlots` takes one event's row and the planned entries' rows for a few statements and
 * re-checks, under those locks, everything the plan assumed. Run against PostgreSQL with no
 * worker (queue entries are plain rows here; the end-to-end paths are in matchmaking*.test.ts).
 */
describe('matchmaking: planning without locks, holding slots under short locks', () => {
  let h: Harness;
  let repo: MatchmakingRepository;
  beforeAll(async () => {
    h = await createHarness({ worker: false, env: { DATABASE_POOL_MAX: '10' } });
    repo = h.app.services.deps.repos.matchmaking;
  });
  afterAll(async () => h?.close());

  /** A seeker waiting in the queue (for one event, or any event when `event` is null). */
  async function waiting(
    event: EventFixture | null,
    o: { status?: string; expiresInMs?: number; enteredAt?: Date } = {},
  ) {
    const s = await h.seeker();
    const id = randomUUID();
    await h.knex('queue_entries').insert({
      id,
      user_id: s.user.id,
      status: o.status ?? 'waiting',
      live_event_id: event?.id ?? null,
      live_event_slug: event?.slug ?? null,
      entered_at: o.enteredAt ?? new Date(),
      expires_at: o.expiresInMs === undefined ? null : new Date(Date.now() + o.expiresInMs),
    });
    return { id, userId: s.user.id, liveEventId: event?.id ?? null };
  }

  const offer = (
    entry: { id: string; userId: string; liveEventId: string | null },
    event: EventFixture,
    jobId: string,
  ): MatchOfferInsert => ({
    id: randomUUID(),
    queue_entry_id: entry.id,
    queue_live_event_id: entry.liveEventId,
    seeker_user_id: entry.userId,
    job_id: jobId,
    live_event_id: event.id,
    team_id: event.teamId,
    match_score: 50,
    score_breakdown: {},
    score_version: 'v1',
    entered_at: new Date(),
  });

  const offersOf = (eventId: string) =>
    h
      .knex('match_offers')
      .where({ live_event_id: eventId })
      .orderBy('created_at')
      .select('queue_entry_id', 'job_id', 'status');

  /** Runs `fn` while another transaction holds `lockSql` (a projection or a recruiter edit in progress). */
  async function whileLocked<T>(lockSql: string, bindings: readonly unknown[], fn: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    let locked!: () => void;
    const isLocked = new Promise<void>((r) => (locked = r));
    const holder = h.knex.transaction(async (trx: Knex.Transaction) => {
      await trx.raw(lockSql, bindings as Knex.RawBinding[]);
      locked();
      await released;
    });
    await isLocked;
    try {
      return await fn();
    } finally {
      release();
      await holder;
    }
  }

  it('never fills an event beyond its free slots, in plan order', async () => {
    const rec = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 2 });
    const job = await createJob(h, { event });
    const [a, b, c] = [await waiting(event), await waiting(event), await waiting(event)];
    const first = await repo.holdSlots(event.id, [
      offer(a, event, job.id),
      offer(b, event, job.id),
      offer(c, event, job.id),
    ]);
    expect(first).toMatchObject({ busy: 0, full: 1, stale: 0 });
    expect(first.held).toHaveLength(2);
    expect((await offersOf(event.id)).map((o) => o.queue_entry_id)).toEqual([a.id, b.id]);
    // A later (or concurrent) round that planned on stale numbers finds the event full.
    const again = await repo.holdSlots(event.id, [offer(c, event, job.id)]);
    expect(again).toMatchObject({ held: [], full: 1 });
  });

  it('concurrent rounds holding slots of one event for different seekers never overfill it', async () => {
    const rec = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 3 });
    const job = await createJob(h, { event });
    const seekers = [];
    for (let i = 0; i < 24; i++) seekers.push(await waiting(event));
    // 24 rounds, each with a different plan (one seeker), at once; the busy ones retry, as the next round would.
    let pending = seekers;
    for (let attempt = 0; pending.length && attempt < 50; attempt++) {
      const results = await Promise.all(
        pending.map((s) => repo.holdSlots(event.id, [offer(s, event, job.id)]).then((r) => ({ s, r }))),
      );
      pending = results.filter(({ r }) => r.busy > 0).map(({ s }) => s);
    }
    expect(pending).toEqual([]);
    const held = await h
      .knex('match_offers')
      .where({ live_event_id: event.id })
      .whereIn('status', ['offering', 'started']);
    expect(held).toHaveLength(3);
  });

  it('re-checks the entry, the job and the event under the locks', async () => {
    const rec = await h.recruiter();
    const priv = await createLiveEvent(h, { teamId: rec.teamId!, slots: 10, visibility: 'private' });
    const open = await createLiveEvent(h, { teamId: rec.teamId!, slots: 10, visibility: 'open_invite' });
    const privJob = await createJob(h, { event: priv });
    const openJob = await createJob(h, { event: open });
    const otherOpenJob = await createJob(h, { event: open, title: 'Other' });
    const closedJob = await createJob(h, { event: open, title: 'Closed' });
    await h.knex('jobs').where({ id: closedJob.id }).update({ status: 'closed' });

    const anyEvent = await waiting(null);
    const left = await waiting(null, { status: 'left' });
    const expired = await waiting(null, { expiresInMs: -1_000 });
    const forPrivate = await waiting(priv);
    // "Any event" never goes to a private event; an entry for one event never to another.
    expect(await repo.holdSlots(priv.id, [offer(anyEvent, priv, privJob.id)])).toMatchObject({ held: [], stale: 1 });
    expect(await repo.holdSlots(open.id, [offer(forPrivate, open, openJob.id)])).toMatchObject({ held: [], stale: 1 });
    // Stopped waiting, or expired, between plan and hold.
    expect(
      await repo.holdSlots(open.id, [offer(left, open, openJob.id), offer(expired, open, openJob.id)]),
    ).toMatchObject({ held: [], stale: 2 });
    // A closed job.
    expect(await repo.holdSlots(open.id, [offer(anyEvent, open, closedJob.id)])).toMatchObject({ held: [], stale: 1 });

    // One open offer per entry: a second round's plan for the same seeker (another event) is refused.
    const held = await repo.holdSlots(open.id, [offer(anyEvent, open, openJob.id)]);
    expect(held.held).toHaveLength(1);
    const forPrivateToo = await waiting(priv);
    expect(
      await repo.holdSlots(priv.id, [offer(forPrivate, priv, privJob.id), offer(forPrivateToo, priv, privJob.id)]),
    ).toMatchObject({ stale: 0, full: 0 });
    expect(await repo.holdSlots(priv.id, [offer(forPrivate, priv, privJob.id)])).toMatchObject({ held: [], stale: 1 });

    // A pair already tried (its match started, then was declined: the entry waits again) is not offered again; another job is.
    await h.knex('match_offers').where({ id: held.held[0] }).update({ status: 'started' });
    expect(await repo.holdSlots(open.id, [offer(anyEvent, open, openJob.id)])).toMatchObject({ held: [], stale: 1 });
    expect(await repo.listTriedPairs([anyEvent.id])).toEqual([{ queue_entry_id: anyEvent.id, job_id: openJob.id }]);
    await h.knex('match_offers').where({ id: held.held[0] }).update({ status: 'closed' });
    expect((await repo.holdSlots(open.id, [offer(anyEvent, open, otherOpenJob.id)])).held).toHaveLength(1);

    // An event that is no longer live takes nothing, whatever its slots.
    const late = await waiting(null);
    await h.knex('live_events').where({ id: open.id }).update({ status: 'ended', ended_at: h.knex.fn.now() });
    expect(await repo.holdSlots(open.id, [offer(late, open, openJob.id)])).toMatchObject({ held: [], stale: 1 });
  });

  it('never waits for a lock: a locked event or entry is left for the next round', async () => {
    const rec = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 5 });
    const job = await createJob(h, { event });
    const [a, b] = [await waiting(event), await waiting(event)];

    // A projection or a recruiter edit holds the event row: nothing is written, nothing waits.
    const t0 = Date.now();
    const r1 = await whileLocked('UPDATE live_events SET updated_at = now() WHERE id = ?', [event.id], () =>
      repo.holdSlots(event.id, [offer(a, event, job.id)]),
    );
    expect(r1).toMatchObject({ held: [], busy: 1 });
    // Another round holds entry a (its own short transaction): a is skipped, b is served.
    const r2 = await whileLocked('SELECT 1 FROM queue_entries WHERE id = ? FOR UPDATE', [a.id], () =>
      repo.holdSlots(event.id, [offer(a, event, job.id), offer(b, event, job.id)]),
    );
    expect(r2).toMatchObject({ busy: 1, stale: 0 });
    expect(r2.held).toHaveLength(1);
    expect(Date.now() - t0).toBeLessThan(10_000);
    // Released: the next round gets a.
    expect((await repo.holdSlots(event.id, [offer(a, event, job.id)])).held).toHaveLength(1);
    expect((await offersOf(event.id)).map((o) => o.queue_entry_id).sort()).toEqual([a.id, b.id].sort());
  });

  it(
    'plans without holding locks: event edits and entry projections go through while a round ' + 'reads and scores',
    async () => {
      // Only this test's seekers wait.
      await h.knex('queue_entries').where({ status: 'waiting' }).update({ status: 'left' });
      const rec = await h.recruiter();
      const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 3, visibility: 'open_invite' });
      for (let i = 0; i < 20; i++)
        await createJob(h, { event, title: `Job ${i}`, essential_skills: [['TypeScript', 'Go', 'Rust'][i % 3]] });
      const entries = [await waiting(null), await waiting(event), await waiting(null)];

      // While the round loads candidate jobs (after reading events and entries, before scoring and
      // holding), a writer touches the very rows the round plans on, with a short lock timeout: it
      // must not have to wait for the round.
      const probes: string[] = [];
      const probed: MatchmakingRepository = {
        ...repo,
        listCandidateJobs: async (ids, trx) => {
          await h.knex.transaction(async (w) => {
            await w.raw(`SET LOCAL lock_timeout = '300ms'`);
            await w('live_events').where({ id: event.id }).update({ headline: 'edited while the round plans' });
            await w('queue_entries')
              .whereIn(
                'id',
                entries.map((e) => e.id),
              )
              .update({ updated_at: w.fn.now() });
          });
          probes.push('ok');
          return repo.listCandidateJobs(ids, trx);
        },
      };
      const activities = createMatchmakingActivities({
        knex: h.knex,
        client: h.temporal,
        config: h.config,
        matchmakingRepository: probed,
        accountsRepository: h.app.services.deps.repos.accounts,
      });
      const round = await activities.runMatchingRound({ batchSize: 500 });
      expect(probes).toEqual(['ok']);
      // The round still held the event's slots for its three oldest entries (no worker runs their
      // workflows here, so the offers are then refused: what matters is that they were written).
      expect(round).toMatchObject({ considered: 3, offered: 3 });
      expect((await offersOf(event.id)).map((o) => o.queue_entry_id).sort()).toEqual(entries.map((e) => e.id).sort());
    },
  );
});
