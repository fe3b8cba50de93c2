import { createHarness, eventually, type Harness } from '../helpers/harness';
import {
  createJob,
  createLiveEvent,
  join,
  kick,
  matchOf,
  queueStatus,
  roundCompleted,
  setEventStatus,
  setSlots,
} from '../matches/fixtures';
import { matchWorkflowId } from '#workflows/matches/contract';
import { matchmakerWorkflowId } from '#workflows/matchmaking/contract';

/**
 * The matchmaker end to end: API join → queueEntry workflow → matchmaker workflow → matching
 * activity over PostgreSQL → offer Update → match workflow → projections → API.
 * Events used only by one test are private (an "any event" entry never sees them), so tests in
 * this file do not take each other's seekers.
 */
describe('matchmaking', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      env: { MATCHMAKER_INTERVAL_MS: '50', QUEUE_ENTRY_TTL_MS: '600000', MATCH_ACCEPT_WINDOW_MS: '600000' },
    });
  });
  afterAll(async () => h?.close());

  it('matches the oldest waiting seeker when a slot frees, and the others keep their places', async () => {
    const rec = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 0 });
    const job = await createJob(h, { event, title: 'Platform Engineer' });
    const [a, b, c] = [await h.seeker(), await h.seeker(), await h.seeker()];
    const ja = await join(h, a, event.slug);
    const jb = await join(h, b, event.slug);
    const jc = await join(h, c, event.slug);
    expect([ja.position, jb.position, jc.position]).toEqual([1, 2, 3]);
    expect(ja).toMatchObject({
      status: 'waiting',
      live_event_slug: event.slug,
      match_id: null,
      estimated_wait_seconds: null,
    });

    // No capacity: nobody is matched however often the matchmaker runs.
    await kick(h);
    await roundCompleted(h);
    expect(await h.knex('match_offers').where({ live_event_id: event.id })).toHaveLength(0);

    await setSlots(h, event.id, 1);
    await kick(h);
    const m = await matchOf(h, a.user.id);
    expect(m).toMatchObject({
      status: 'matched',
      job_id: job.id,
      team_id: rec.teamId,
      live_event_id: event.id,
      live_event_slug: event.slug,
      queue_entry_id: ja.queue_id,
      score_version: 'v2',
    });
    expect(m.score_breakdown.floor).toMatchObject({ bracket: 0, min_score: 50, essential_required: true });
    expect(m.match_score).toBeGreaterThan(0);
    expect(m.score_breakdown.essential_skills).toMatchObject({ matched: ['TypeScript'], missing: [] });

    const sa = await eventually(async () => {
      const s = await queueStatus(h, a);
      return s.status === 'matched' && s;
    });
    expect(sa).toMatchObject({ id: ja.queue_id, match_id: m.id, job_ids: [job.id], position: null });
    // b and c moved up; they are not matched (the one slot is held).
    await roundCompleted(h);
    expect(await queueStatus(h, b)).toMatchObject({ status: 'waiting', position: 1, match_id: null });
    expect(await queueStatus(h, c)).toMatchObject({ status: 'waiting', position: 2, match_id: null });
    expect(await h.knex('matches').where({ live_event_id: event.id })).toHaveLength(1);

    // A join by a matched seeker answers 409 naming the match (never a `matched` QueueJoinResponse).
    const again = await h.call({
      method: 'POST',
      url: '/api/v1/queue/join',
      token: a.token,
      payload: { live_event_slug: event.slug },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      code: 'QUEUE_ENTRY_MATCHED',
      details: { queue_id: ja.queue_id, match_id: m.id },
    });

    // Operators find the match and the entry by their search attributes.
    const desc = await h.temporal.workflow.getHandle(matchWorkflowId(m.id)).describe();
    expect(desc.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value])).toEqual(
      expect.arrayContaining([
        ['JobfairEntity', 'match'],
        ['JobfairStatus', 'matched'],
        ['JobfairUserId', a.user.id],
        ['JobfairTeamId', rec.teamId],
        ['JobfairEventSlug', event.slug],
      ]),
    );
    // …and by a visibility query (eventually consistent on the dev server).
    const listed = await eventually(async () => {
      const ids: string[] = [];
      for await (const wf of h.temporal.workflow.list({
        query: `JobfairEntity = "match" AND JobfairEventSlug = "${event.slug}"`,
      }))
        ids.push(wf.workflowId);
      return ids.length === 1 && ids;
    });
    expect(listed).toEqual([matchWorkflowId(m.id)]);
  });

  it('keeps positions current and estimates the wait from the observed match rate (null without data)', async () => {
    const rec = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 0 });
    await createJob(h, { event });
    const seekers = [await h.seeker(), await h.seeker(), await h.seeker(), await h.seeker(), await h.seeker()];
    const joined = [];
    for (const s of seekers) joined.push(await join(h, s, event.slug));
    expect(joined.map((j) => j.position)).toEqual([1, 2, 3, 4, 5]);
    expect(joined.every((j) => j.estimated_wait_seconds === null)).toBe(true);

    // Three matches happen for this event's queue (within one minute).
    await setSlots(h, event.id, 3);
    await kick(h);
    for (const s of seekers.slice(0, 3)) await matchOf(h, s.user.id);

    // Rate = 3 matches over max(span, 60 s) = 3/60 per second → position 1 waits 20 s, position 2 waits 40 s.
    const s4 = await queueStatus(h, seekers[3]);
    const s5 = await queueStatus(h, seekers[4]);
    expect(s4).toMatchObject({ status: 'waiting', position: 1, estimated_wait_seconds: 20 });
    expect(s5).toMatchObject({ status: 'waiting', position: 2, estimated_wait_seconds: 40 });

    // The "any event" queue has its own (empty) history: still no estimate there.
    const other = await h.seeker();
    const anyJoin = await join(h, other);
    expect(anyJoin.estimated_wait_seconds).toBeNull();
  });

  it(
    'an "any event" entry waits until an open-invite event goes live, never takes a private ' +
      'one, and is matched there',
    async () => {
      const rec = await h.recruiter();
      const privateEvent = await createLiveEvent(h, { teamId: rec.teamId!, slots: 5, visibility: 'private' });
      await createJob(h, { event: privateEvent });
      const openEvent = await createLiveEvent(h, {
        teamId: rec.teamId!,
        slots: 2,
        visibility: 'open_invite',
        status: 'draft',
      });
      const openJob = await createJob(h, { event: openEvent, title: 'Data Engineer' });

      const s = await h.seeker();
      const j = await join(h, s);
      expect(j).toMatchObject({ status: 'waiting', live_event_slug: null });
      await kick(h);
      await roundCompleted(h);
      expect(await h.knex('matches').where({ seeker_user_id: s.user.id })).toHaveLength(0);

      // The event goes live mid-queue (the events capability's go-live kicks the matchmaker).
      await setEventStatus(h, openEvent.id, 'live');
      await kick(h);
      const m = await matchOf(h, s.user.id);
      expect(m).toMatchObject({ live_event_id: openEvent.id, job_id: openJob.id, status: 'matched' });
      await h.knex('live_events').where({ id: openEvent.id }).update({ visibility: 'private' });
    },
  );

  it(
    'never matches into an ended event; a waiting entry of an ended event is drained (expired, ' + '"event ended")',
    async () => {
      const rec = await h.recruiter();
      const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 0 });
      await createJob(h, { event });
      const s = await h.seeker();
      const j = await join(h, s, event.slug);
      // The event ends with free slots: the matchmaker must not use them, and tells the entry.
      await h
        .knex('live_events')
        .where({ id: event.id })
        .update({ status: 'ended', interview_slots: 5, ended_at: h.knex.fn.now() });
      await kick(h);
      const st = await eventually(async () => {
        const q = await queueStatus(h, s);
        return q.status === 'expired' && q;
      });
      expect(st).toMatchObject({ id: j.queue_id, position: null, match_id: null });
      const row = await h.knex('queue_entries').where({ id: j.queue_id }).first();
      expect(row.end_reason).toBe('event ended');
      expect(await h.knex('match_offers').where({ live_event_id: event.id })).toHaveLength(0);
      // Joining an ended event is refused.
      const again = await h.call({
        method: 'POST',
        url: '/api/v1/queue/join',
        token: s.token,
        payload: { live_event_slug: event.slug },
      });
      expect(again.statusCode).toBe(404);
    },
  );

  it('runs one matchmaker per task queue, visible in Temporal', async () => {
    const desc = await h.temporal.workflow.getHandle(matchmakerWorkflowId(h.config.TEMPORAL_TASK_QUEUE)).describe();
    expect(desc.status.name).toBe('RUNNING');
    expect(desc.type).toBe('matchmakerWorkflow');
  });
});
