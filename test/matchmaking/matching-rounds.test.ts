import { randomUUID } from 'node:crypto';
import { createHarness, type Harness } from '../helpers/harness';
import { createJob, createLiveEvent, matchmakingActivities, type EventFixture } from '../matches/fixtures';
import { MATCHMAKER_ROUND_MAX_OFFERS, matchmakerWorkflowId } from '#workflows/matchmaking/contract';
import { kickMatchmaker } from '#workflows/matchmaking/client';
import { PLAN_PAGE_SIZE } from '#activities/matchmaking/matchmaking-activities';

/**
 * Fast rounds (decision 0190), against PostgreSQL with no worker (offers are then refused — the
 * entries are plain rows — which is all these tests need: `offered` counts the slots held):
 * - the open jobs stay cached between rounds, and a job written meanwhile is what the next round sees;
 * - a round makes at most MATCHMAKER_ROUND_MAX_OFFERS offers and says `more` when it stopped there;
 * - waiting entries are read a page at a time, so entries nothing can match do not hide younger ones;
 * - kicks sent at once from one process reach the matchmaker as one or two signals.
 */
describe('matching rounds: cached jobs, bounded offers, paged entries', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ worker: false });
  });
  afterAll(async () => h?.close());

  /** `n` seekers with these skills waiting for `event` (or any event), entered in order, oldest `firstAgoMs` ago. */
  async function waitingSeekers(
    n: number,
    skills: string[],
    event: EventFixture | null,
    firstAgoMs: number,
  ): Promise<string[]> {
    const ids: string[] = [];
    const base = Date.now() - firstAgoMs;
    for (let i = 0; i < n; i++) {
      const [u] = await h
        .knex('users')
        .insert({ email: `round-${randomUUID()}@test.local`, display_name: `Seeker ${i}`, role: 'seeker' })
        .returning(['id']);
      await h.knex('profiles').insert({
        user_id: u.id,
        full_name: `Seeker ${i}`,
        skills,
        experience_years: 5,
        remote_preference: 'fully_remote',
      });
      const id = randomUUID();
      await h.knex('queue_entries').insert({
        id,
        user_id: u.id,
        status: 'waiting',
        live_event_id: event?.id ?? null,
        live_event_slug: event?.slug ?? null,
        entered_at: new Date(base + i * 10),
      });
      ids.push(id);
    }
    return ids;
  }

  const clearQueue = async () => {
    await h.knex('queue_entries').where({ status: 'waiting' }).update({ status: 'left' });
  };

  it('a job edited, opened or closed between rounds is what the next round sees', async () => {
    await clearQueue();
    const rec = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 5, status: 'live' });
    const job = await createJob(h, { event, essential_skills: ['Cobol'], remote_preference: 'remote' });
    const [entry] = await waitingSeekers(1, ['Elixir'], event, 0);
    const activities = matchmakingActivities(h);
    // The floor requires an essential skill: nothing to offer.
    expect((await activities.runMatchingRound({ batchSize: 500 })).offered).toBe(0);
    // The recruiter edits the job (the cache must not keep the old skills).
    await h
      .knex('jobs')
      .where({ id: job.id })
      .update({ essential_skills: ['Elixir'] });
    const second = await activities.runMatchingRound({ batchSize: 500 });
    expect(second.offered).toBe(1);
    expect(await h.knex('match_offers').where({ queue_entry_id: entry, job_id: job.id }).first('id')).toBeTruthy();
    // Closed: gone from the next round's candidates (the offer above was refused: the entry waits again).
    await h.knex('jobs').where({ id: job.id }).update({ status: 'closed' });
    expect((await activities.runMatchingRound({ batchSize: 500 })).offered).toBe(0);
    // A new job of the same event is found by the same (cached) round state.
    await createJob(h, { event, essential_skills: ['Elixir'], remote_preference: 'remote' });
    expect((await activities.runMatchingRound({ batchSize: 500 })).offered).toBe(1);
  });

  it(`offers at most ${MATCHMAKER_ROUND_MAX_OFFERS} per round and says more when it stopped there`, async () => {
    await clearQueue();
    const rec = await h.recruiter();
    const event = await createLiveEvent(h, {
      teamId: rec.teamId!,
      slots: MATCHMAKER_ROUND_MAX_OFFERS + 10,
      status: 'live',
      visibility: 'open_invite',
    });
    await createJob(h, { event, essential_skills: ['Go'], remote_preference: 'remote' });
    await waitingSeekers(MATCHMAKER_ROUND_MAX_OFFERS + 4, ['Go'], null, 60_000);
    const activities = matchmakingActivities(h);
    const first = await activities.runMatchingRound({ batchSize: 500 });
    expect(first).toMatchObject({ offered: MATCHMAKER_ROUND_MAX_OFFERS, more: true });
    // Fewer than the bound can take a slot: no `more`.
    await clearQueue();
    await waitingSeekers(5, ['Go'], null, 60_000);
    expect(await activities.runMatchingRound({ batchSize: 500 })).toMatchObject({ offered: 5, more: false });
  });

  it('coalesces kicks sent at once into one signal and one sent after the first landed', async () => {
    const id = matchmakerWorkflowId(h.config.TEMPORAL_TASK_QUEUE);
    const signals = async () => {
      try {
        const history = await h.temporal.workflow.getHandle(id).fetchHistory();
        return (history.events ?? []).filter((e) => e.workflowExecutionSignaledEventAttributes).length;
      } catch {
        return 0;
      }
    };
    const before = await signals();
    // 20 joins at once (no worker runs the matchmaker here: its history just records the signals).
    await Promise.all(Array.from({ length: 20 }, () => kickMatchmaker(h.temporal, h.config, 'queue_join')));
    const burst = (await signals()) - before;
    expect(burst).toBeGreaterThanOrEqual(1);
    expect(burst).toBeLessThanOrEqual(2);
    // A kick after those landed is sent (a round must follow whatever its caller wrote).
    await kickMatchmaker(h.temporal, h.config, 'slot_freed');
    expect((await signals()) - before).toBe(burst + 1);
  });

  it('reads past a page of entries nothing can match to reach younger ones that can', async () => {
    await clearQueue();
    const rec = await h.recruiter();
    const event = await createLiveEvent(h, {
      teamId: rec.teamId!,
      slots: 10,
      status: 'live',
      visibility: 'open_invite',
    });
    await createJob(h, { event, essential_skills: ['Rust'], remote_preference: 'remote' });
    // The oldest page and then some: no essential skill (the floor's first bracket requires one).
    await waitingSeekers(PLAN_PAGE_SIZE + 20, ['Cobol'], null, 120_000);
    const younger = await waitingSeekers(3, ['Rust'], null, 60_000);
    const round = await matchmakingActivities(h).runMatchingRound({ batchSize: 500 });
    expect(round.considered).toBe(PLAN_PAGE_SIZE + 23);
    expect(round.offered).toBe(3);
    const offered = await h.knex('match_offers').whereIn('queue_entry_id', younger).select('queue_entry_id');
    expect(offered.map((o: { queue_entry_id: string }) => o.queue_entry_id).sort()).toEqual([...younger].sort());
  });
});
