import { randomUUID } from 'node:crypto';
import { createHarness, type Harness } from '../helpers/harness';
import { createJob, createLiveEvent } from '../matches/fixtures';
import { createMatchmakingActivities } from '#activities/matchmaking/matchmaking-activities';

/**
 * MATCHMAKING_PLANNER switches the round's plan (plan.ts) without touching the workflows: on the
 * same rows, the greedy round lets the older seeker take the only slot the younger one fits, the
 * assignment round gives each seeker a slot. Against PostgreSQL with no worker (the offers are
 * then refused and the rows stay as they were, so both planners see the same queue).
 */
describe('MATCHMAKING_PLANNER: the round plans greedily or by assignment', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ worker: false, env: { MATCHMAKING_PLANNER: 'assignment' } });
  });
  afterAll(async () => h?.close());

  const round = (planner: 'greedy' | 'assignment') =>
    createMatchmakingActivities({
      knex: h.knex,
      client: h.temporal,
      config: { ...h.config, MATCHMAKING_PLANNER: planner },
      matchmakingRepository: h.app.services.deps.repos.matchmaking,
      accountsRepository: h.app.services.deps.repos.accounts,
    }).runMatchingRound({ batchSize: 500 });

  async function seeker(skills: string[], agoMs: number): Promise<string> {
    const [u] = await h
      .knex('users')
      .insert({ email: `plan-${randomUUID()}@test.local`, display_name: 'Seeker', role: 'seeker' })
      .returning(['id']);
    await h
      .knex('profiles')
      .insert({ user_id: u.id, full_name: 'Seeker', skills, experience_years: 5, remote_preference: 'fully_remote' });
    const id = randomUUID();
    await h
      .knex('queue_entries')
      .insert({ id, user_id: u.id, status: 'waiting', entered_at: new Date(Date.now() - agoMs) });
    return id;
  }

  it('gives each seeker its own slot where greedy gives the older one the slot the younger needed', async () => {
    expect(h.config.MATCHMAKING_PLANNER).toBe('assignment');
    const rec = await h.recruiter();
    const a = await createLiveEvent(h, { teamId: rec.teamId!, slots: 1, visibility: 'open_invite' });
    const b = await createLiveEvent(h, { teamId: rec.teamId!, slots: 1, visibility: 'open_invite' });
    const jobA = await createJob(h, { event: a, essential_skills: ['Go'], remote_preference: 'remote' });
    const jobB = await createJob(h, { event: b, essential_skills: ['Rust', 'Kotlin'], remote_preference: 'remote' });
    // The older seeker fits both (A best); the younger only A (B needs an essential skill it lacks).
    const older = await seeker(['Go', 'Rust'], 60_000);
    const younger = await seeker(['golang'], 30_000);
    const offers = async () =>
      (await h.knex('match_offers').select('queue_entry_id', 'job_id')).map(
        (o: { queue_entry_id: string; job_id: string }) =>
          `${o.queue_entry_id === older ? 'older' : o.queue_entry_id === younger ? 'younger' : '?'}:${
            o.job_id === jobA.id ? 'A' : o.job_id === jobB.id ? 'B' : '?'
          }`,
      );

    expect((await round('greedy')).offered).toBe(1);
    expect(await offers()).toEqual(['older:A']);
    // The refused offer freed its slot, and the pair counts as tried for that entry: clear it so the
    // assignment round meets the same queue.
    await h.knex('match_offers').del();

    expect((await round('assignment')).offered).toBe(2);
    expect((await offers()).sort()).toEqual(['older:B', 'younger:A']);
  });
});
