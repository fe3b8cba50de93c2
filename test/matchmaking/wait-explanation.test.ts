import { createHarness, eventually, type Harness, type TestUser } from '../helpers/harness';
import { why, UnknownSubjectError, type OpsContext } from '#apps/ops/src/ops-commands';
import {
  createJob,
  createLiveEvent,
  join,
  matchOf,
  queueStatus,
  roundCompleted,
  setEventStatus,
  type EventFixture,
} from '../matches/fixtures';

/**
 * "When will I be matched" has one answer: the queue status (outlook and estimate), `npm run ops
 * -- why` and the seeker's page all come from the wait explanation, computed with the matchmaker's
 * own rules. Each blocking reason is staged through the real app and worker; the surfaces must
 * agree with each other and with what a matching round actually does (no offer while blocked; an
 * offer in the very next round once the blocker is lifted).
 */
describe('wait explanation: one answer on every surface', () => {
  let h: Harness;
  let ctx: OpsContext;
  beforeAll(async () => {
    h = await createHarness({
      env: {
        MATCHMAKER_INTERVAL_MS: '100',
        QUEUE_ENTRY_TTL_MS: '600000',
        MATCH_ACCEPT_WINDOW_MS: '600000',
        MATCH_MIN_SCORE: '50',
        // Strict for 10 minutes (no test waits that long), then 60 points lower.
        MATCH_FLOOR_BRACKETS: '0:0:1,600000:60:1',
      },
    });
    ctx = { services: h.app.services, temporal: h.temporal, timeZone: 'UTC' };
  }, 60_000);
  afterAll(async () => h?.close());

  const setAvailability = async (r: TestUser, event: EventFixture, body: { available: boolean; capacity?: number }) => {
    const res = await h.call({
      method: 'PUT',
      url: `/api/v1/team/live-events/${event.id}/availability`,
      token: r.token,
      payload: body,
    });
    expect(res.statusCode).toBe(200);
  };

  /**
   * Once the blocker is lifted, one round (run here) offers the seeker. The worker's own matchmaker
   * may run that round first, or hold the entry while ours runs (ours then skips it): the offer is
   * made either way, by the first round that sees the lifted blocker; its match row lands once the
   * entry has taken it.
   */
  const offeredWithinOneRound = async (s: TestUser) => {
    await roundCompleted(h);
    return eventually(() => h.knex('matches').where({ seeker_user_id: s.user.id }).first(), 3_000);
  };

  /**
   * The status, `ops why` by e-mail and by the Temporal UI's workflow id, and the seeker's page's
   * status JSON: the same blocker and the same words; a round run now offers nothing while blocked.
   */
  const surfacesAgree = async (s: TestUser, blocker: string) => {
    // A round that saw the staged state: no offer to this seeker.
    await roundCompleted(h);
    expect(await h.knex('matches').where({ seeker_user_id: s.user.id, status: 'matched' })).toHaveLength(0);
    const status = await queueStatus(h, s);
    expect(status.status).toBe('waiting');
    expect(status.match_outlook.blocked_by).toBe(blocker);
    const byEmail = await why(ctx, s.user.email);
    const byWorkflowId = await why(ctx, `queue-entry:${s.user.id}`);
    for (const lines of [byEmail, byWorkflowId]) {
      expect(lines).toContain(`Blocked by: ${blocker}.`);
      expect(lines).toContain(`Why: ${status.match_outlook.reason}`);
    }
    const page = await h.app.services.queue.status(s.user.id);
    expect(page?.matchOutlook).toMatchObject({ blockedBy: blocker, reason: status.match_outlook.reason });
    return status;
  };

  it(
    'recruiters unavailable, then available: the next round offers the seeker first in line; ' +
      'the estimate is honest (none, then the next rounds)',
    async () => {
      const r1 = await h.recruiter();
      const r2 = await h.recruiter({ teamId: r1.teamId! });
      const event = await createLiveEvent(h, { teamId: r1.teamId!, slots: 5 });
      await createJob(h, { event, essential_skills: ['TypeScript'] });
      await setAvailability(r1, event, { available: false });
      await setAvailability(r2, event, { available: false });
      const s = await h.seeker();
      await join(h, s, event.slug);
      const status = await surfacesAgree(s, 'recruiters_unavailable');
      expect(status).toMatchObject({
        position: 1,
        estimated_wait_seconds: null,
        estimated_wait: { min_seconds: null, max_seconds: null },
        match_outlook: { state: 'matchable', eligible_jobs: 1, passing_jobs: 1 },
      });
      expect(status.match_outlook.reason).toMatch(/no recruiter is taking new interviews/);

      // Both recruiters free: first in line, an eligible job, a free recruiter → offered within one round.
      await h.knex('recruiter_availability').where({ live_event_id: event.id }).update({ available: true });
      const due = await queueStatus(h, s);
      if (due.status === 'waiting') {
        expect(due.match_outlook.blocked_by).toBeNull();
        expect(due.estimated_wait_seconds).toBe(1);
      }
      const m = await offeredWithinOneRound(s);
      expect([r1.user.id, r2.user.id]).toContain(m.recruiter_user_id);
    },
    60_000,
  );

  it('recruiters busy: every available recruiter at capacity; a freed one gets the next offer', async () => {
    const r = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: r.teamId!, slots: 5 });
    await createJob(h, { event, title: 'One', essential_skills: ['TypeScript'] });
    await createJob(h, { event, title: 'Two', essential_skills: ['Go'] });
    await setAvailability(r, event, { available: true, capacity: 1 });
    // Only job One fits the first seeker: once declined, it has nothing left to be offered.
    const first = await h.seeker({ profile: { skills: ['TypeScript'] } });
    await join(h, first, event.slug);
    const m1 = await matchOf(h, first.user.id);
    const s = await h.seeker({ profile: { skills: ['TypeScript', 'Go'] } });
    await join(h, s, event.slug);
    const status = await surfacesAgree(s, 'recruiters_busy');
    expect(status.estimated_wait_seconds).toBeNull();
    expect(status.estimated_wait.reason).toMatch(/too few recent matches/);

    // The recruiter's interview slot frees (the first match is declined): the next round offers.
    const declined = await h.call({
      method: 'POST',
      url: `/api/v1/matches/${m1.id}/decline`,
      token: r.token,
      payload: { reason: 'not this time' },
    });
    expect(declined.statusCode).toBe(200);
    await eventually(async () => (await h.knex('matches').where({ id: m1.id }).first())?.status === 'declined');
    expect((await offeredWithinOneRound(s)).recruiter_user_id).toBe(r.user.id);
  }, 60_000);

  it('no free slot: the event-wide cap is reached (no recruiter availability set)', async () => {
    const r = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: r.teamId!, slots: 1 });
    await createJob(h, { event, title: 'One', essential_skills: ['TypeScript'] });
    await createJob(h, { event, title: 'Two', essential_skills: ['TypeScript'] });
    const first = await h.seeker();
    await join(h, first, event.slug);
    await matchOf(h, first.user.id);
    const s = await h.seeker();
    await join(h, s, event.slug);
    const status = await surfacesAgree(s, 'no_free_slot');
    expect(status.match_outlook.reason).toMatch(/every interview slot is taken/);
    expect(status.estimated_wait_seconds).toBeNull();
  }, 60_000);

  it('below the floor until it relaxes: the time is named, the estimate is a lower bound', async () => {
    const r = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: r.teamId!, slots: 3 });
    await h.knex('live_events').where({ id: event.id }).update({ match_min_score: 99 });
    // Half the essential skills: 25 + 15 (experience) of 65 → 61.5, below 99, above 99 − 60.
    await createJob(h, { event, essential_skills: ['TypeScript', 'Rust'], bonus_skills: [], experience_min: 0 });
    const s = await h.seeker();
    const joined = await join(h, s, event.slug);
    const status = await surfacesAgree(s, 'below_floor');
    const entered = new Date(status.entered_at).getTime();
    expect(new Date(status.match_outlook.floor_relaxes_at).getTime()).toBe(entered + 600_000);
    expect(status).toMatchObject({
      estimated_wait_seconds: null,
      match_outlook: { state: 'matchable', eligible_jobs: 1, passing_jobs: 0 },
    });
    expect(status.estimated_wait.min_seconds).toBeGreaterThan(590);
    expect(status.estimated_wait.max_seconds).toBeNull();
    expect(status.match_outlook.reason).toMatch(
      /No job passes the quality floor yet .*score below 99.*relaxes in 10 min/,
    );
    expect(joined.match_outlook.blocked_by).toBe('below_floor');

    // The floor lowered by the recruiter: the next round offers it.
    const res = await h.call({
      method: 'PATCH',
      url: `/api/v1/team/live-events/${event.id}/matching`,
      token: r.token,
      payload: { min_score: 60 },
    });
    expect(res.statusCode).toBe(200);
    expect((await offeredWithinOneRound(s)).score_breakdown.floor).toMatchObject({ min_score: 60 });
  }, 60_000);

  it('no eligible job: none shares an essential skill (never relaxed), or every job was declined', async () => {
    const r = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: r.teamId!, slots: 3 });
    await createJob(h, { event, essential_skills: ['Haskell'] });
    const s = await h.seeker({ profile: { skills: ['COBOL'] } });
    await join(h, s, event.slug);
    const status = await surfacesAgree(s, 'no_eligible_job');
    expect(status).toMatchObject({
      estimated_wait_seconds: null,
      match_outlook: { state: 'no_eligible_job', eligible_jobs: 0 },
      estimated_wait: { reason: 'waiting alone does not lead to a match' },
    });
    expect(status.match_outlook.reason).toMatch(/never pass the quality floor/);

    // Declined: excluded for good.
    const job = await createJob(h, { event, title: 'Fits', essential_skills: ['COBOL'] });
    const m = await matchOf(h, s.user.id);
    expect(m.job_id).toBe(job.id);
    await h.call({ method: 'POST', url: `/api/v1/matches/${m.id}/decline`, token: s.token, payload: { reason: 'no' } });
    await eventually(async () => (await queueStatus(h, s)).status === 'waiting');
    const after = await surfacesAgree(s, 'no_eligible_job');
    expect(after.match_outlook.reason).toMatch(/1 declined, interviewed for or already offered/);
  }, 60_000);

  it('event paused: the event is not live', async () => {
    const r = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: r.teamId!, slots: 0 });
    await createJob(h, { event });
    const s = await h.seeker();
    await join(h, s, event.slug);
    await setEventStatus(h, event.id, 'paused');
    const status = await surfacesAgree(s, 'event_not_live');
    expect(status.match_outlook).toMatchObject({ state: 'event_paused', eligible_jobs: null });
  }, 60_000);

  it('ops why: the ids of the Temporal UI work; an unknown subject is an error (the CLI exits 1)', async () => {
    const r = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: r.teamId!, slots: 1 });
    await createJob(h, { event });
    const s = await h.seeker();
    await join(h, s, event.slug);
    const m = await matchOf(h, s.user.id);
    await eventually(async () =>
      h.temporal.workflow
        .getHandle(`match:${m.id}`)
        .describe()
        .then(
          () => true,
          () => false,
        ),
    );
    expect((await why(ctx, `match:${m.id}`)).join('\n')).toContain(`Match ${m.id}`);
    expect((await why(ctx, `queue-entry:${s.user.id}`)).join('\n')).toMatch(/Queue entry .* matched/);
    expect((await why(ctx, s.user.id)).join('\n')).toContain(`${s.user.display_name} (seeker).`);
    await expect(why(ctx, 'nobody@nowhere.test')).rejects.toThrow(UnknownSubjectError);
    await expect(why(ctx, 'queue-entry:00000000-0000-4000-8000-000000000000')).rejects.toThrow(/No user/);
    await expect(why(ctx, '00000000-0000-4000-8000-000000000000')).rejects.toThrow(/neither PostgreSQL nor Temporal/);
    await expect(why(ctx, 'not-an-id')).rejects.toThrow(/Not a match id/);
  }, 60_000);
});
