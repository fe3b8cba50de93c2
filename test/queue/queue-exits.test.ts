import { createHarness, eventually, type Harness, type TestUser } from '../helpers/harness';
import {
  createJob,
  createLiveEvent,
  join,
  matchOf,
  matchesService,
  queueStatus,
  roundCompleted,
  type EventFixture,
} from '../matches/fixtures';
import { queueEntryWorkflowId } from '#workflows/queue/contract';

/**
 * Leaving is always possible, with the matchmaker running (50 ms rounds): a seeker whose entry is
 * matched can leave (the pending match is declined as part of it) or decline and leave in one call,
 * and the entry ends `left` without ever being offered another job. Each event has two jobs, so a
 * declined seeker who stayed would be matched again at once — the trap these tests guard against.
 */
describe('queue exits with the matchmaker running', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      env: {
        MATCHMAKER_INTERVAL_MS: '50',
        QUEUE_ENTRY_TTL_MS: '600000',
        MATCH_ACCEPT_WINDOW_MS: '600000',
        INTERVIEW_LENGTH_MS: '600000',
      },
    });
  });
  afterAll(async () => h?.close());

  /** An event with two open jobs and room for both: a seeker who declines one is offered the other. */
  const twoJobEvent = async (): Promise<{ rec: TestUser; event: EventFixture }> => {
    const rec = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 2 });
    await createJob(h, { event, title: 'Backend Engineer' });
    await createJob(h, { event, title: 'Platform Engineer' });
    return { rec, event };
  };

  const matchedSeeker = async (event: EventFixture) => {
    const seeker = await h.seeker();
    const joined = await join(h, seeker, event.slug);
    const match = await matchOf(h, seeker.user.id);
    await eventually(async () => (await queueStatus(h, seeker)).status === 'matched');
    return { seeker, joined, match };
  };

  const entryClosed = (s: TestUser) =>
    eventually(
      async () =>
        (await h.temporal.workflow.getHandle(queueEntryWorkflowId(s.user.id)).describe()).status.name === 'COMPLETED',
    );

  it('a declined seeker who stays is matched again at once (the reason leaving must work)', async () => {
    const { event } = await twoJobEvent();
    const { seeker, match } = await matchedSeeker(event);
    const res = await h.call({
      method: 'POST',
      url: `/api/v1/matches/${match.id}/decline`,
      token: seeker.token,
      payload: { reason: 'Not this one' },
    });
    expect(res.statusCode).toBe(200);
    const second = await matchOf(h, seeker.user.id, { status: 'matched' });
    expect(second.id).not.toBe(match.id);
  });

  it('POST /queue/leave while matched declines the pending match (reason left_queue) and ends the entry left', async () => {
    const { event } = await twoJobEvent();
    const { seeker, joined, match } = await matchedSeeker(event);
    const res = await h.call({ method: 'POST', url: '/api/v1/queue/leave', token: seeker.token });
    expect(res.statusCode).toBe(200);
    expect(res.json().queue_entry).toMatchObject({ id: joined.queue_id, status: 'left', position: null });
    const row = await h.knex('matches').where({ id: match.id }).first();
    expect(row).toMatchObject({
      status: 'declined',
      declined_by: seeker.user.id,
      declined_by_role: 'seeker',
      decline_reason_code: 'left_queue',
    });
    expect(row.decline_reason).toMatch(/left the queue/i);
    const entry = await h.knex('queue_entries').where({ id: joined.queue_id }).first();
    expect(entry.status).toBe('left');
    expect(entry.end_reason).toContain(match.id);
    await entryClosed(seeker);
    // The other job is free and the matchmaker runs: a whole round later, still no second match.
    await roundCompleted(h);
    await roundCompleted(h);
    expect(await h.knex('matches').where({ seeker_user_id: seeker.user.id })).toHaveLength(1);
    expect(await queueStatus(h, seeker)).toMatchObject({ status: 'left', match_id: match.id });
    // The API's match says why.
    const listed = await h.call({ method: 'GET', url: '/api/v1/matches', token: seeker.token });
    expect(listed.json().matches[0]).toMatchObject({ id: match.id, decline_reason_code: 'left_queue' });
  });

  it('POST /matches/{id}/decline with leave_queue: true declines and leaves; never rematched', async () => {
    const { event } = await twoJobEvent();
    const { seeker, joined, match } = await matchedSeeker(event);
    const res = await h.call({
      method: 'POST',
      url: `/api/v1/matches/${match.id}/decline`,
      token: seeker.token,
      payload: { reason: 'Found a job elsewhere', leave_queue: true },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().match).toMatchObject({
      id: match.id,
      status: 'declined',
      declined_by_role: 'seeker',
      decline_reason: 'Found a job elsewhere',
      decline_reason_code: 'left_queue',
    });
    // The decline answers once the entry reads `left`: no window for a rematch.
    expect(await queueStatus(h, seeker)).toMatchObject({ id: joined.queue_id, status: 'left' });
    await entryClosed(seeker);
    await roundCompleted(h);
    await roundCompleted(h);
    expect(await h.knex('matches').where({ seeker_user_id: seeker.user.id })).toHaveLength(1);

    // A reason code of the seeker's own is kept.
    const { seeker: other, match: m2 } = await matchedSeeker(event);
    const r2 = await h.call({
      method: 'POST',
      url: `/api/v1/matches/${m2.id}/decline`,
      token: other.token,
      payload: { reason: 'Too far', reason_code: 'location', leave_queue: true },
    });
    expect(r2.statusCode).toBe(200);
    expect(r2.json().match.decline_reason_code).toBe('location');
    expect(await queueStatus(h, other)).toMatchObject({ status: 'left' });
  });

  it('leave_queue is the seeker’s: a recruiter asking for it is refused and nothing changes', async () => {
    const { rec, event } = await twoJobEvent();
    const { seeker, match } = await matchedSeeker(event);
    const res = await h.call({
      method: 'POST',
      url: `/api/v1/matches/${match.id}/decline`,
      token: rec.token,
      payload: { reason: 'Filled', leave_queue: true },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().code).toBe('ROLE_NOT_ALLOWED');
    expect((await h.knex('matches').where({ id: match.id }).first()).status).toBe('matched');
    expect(await queueStatus(h, seeker)).toMatchObject({ status: 'matched', match_id: match.id });
  });

  it('GET /queue/status carries the match’s details_url once matched (null while waiting)', async () => {
    const rec = await h.recruiter();
    const quiet = await createLiveEvent(h, { teamId: rec.teamId!, slots: 1 });
    const waiting = await h.seeker();
    await join(h, waiting, quiet.slug);
    expect(await queueStatus(h, waiting)).toMatchObject({ status: 'waiting', match_id: null, details_url: null });

    const { event } = await twoJobEvent();
    const { seeker, match } = await matchedSeeker(event);
    expect(await queueStatus(h, seeker)).toMatchObject({
      status: 'matched',
      match_id: match.id,
      details_url: `http://jobfair.test/matches/${match.id}`,
      join_url: `http://jobfair.test/events/${event.slug}`,
    });
  });

  it('a join while matched names the match, its details_url and the way out — for this event or another', async () => {
    const { event } = await twoJobEvent();
    const { seeker, joined, match } = await matchedSeeker(event);
    const detailsUrl = `http://jobfair.test/matches/${match.id}`;

    const same = await h.call({
      method: 'POST',
      url: '/api/v1/queue/join',
      token: seeker.token,
      payload: { live_event_slug: event.slug },
    });
    expect(same.statusCode).toBe(409);
    expect(same.json()).toMatchObject({
      code: 'QUEUE_ENTRY_MATCHED',
      details: { queue_id: joined.queue_id, match_id: match.id, details_url: detailsUrl },
    });
    expect(same.json().error).toContain(match.id);
    expect(same.json().error).toMatch(/queue\/leave/);

    const rec2 = await h.recruiter();
    const other = await createLiveEvent(h, { teamId: rec2.teamId!, slots: 1 });
    const elsewhere = await h.call({
      method: 'POST',
      url: '/api/v1/queue/join',
      token: seeker.token,
      payload: { live_event_slug: other.slug },
    });
    expect(elsewhere.statusCode).toBe(409);
    // Another event keeps its v1 code; the details and the message name the match and the way out.
    expect(elsewhere.json()).toMatchObject({
      code: 'QUEUE_ENTRY_EXISTS',
      details: { queue_id: joined.queue_id, match_id: match.id, details_url: detailsUrl },
    });
    expect(elsewhere.json().error).toContain(match.id);
    expect(elsewhere.json().error).toMatch(/queue\/leave/);

    // The way out named works: leave, then join the other event.
    expect((await h.call({ method: 'POST', url: '/api/v1/queue/leave', token: seeker.token })).statusCode).toBe(200);
    const rejoined = await h.call({
      method: 'POST',
      url: '/api/v1/queue/join',
      token: seeker.token,
      payload: { live_event_slug: other.slug },
    });
    expect(rejoined.statusCode).toBe(200);
    expect(rejoined.json().queue_id).not.toBe(joined.queue_id);
  });

  it('leaving after the match was accepted answers 409 naming the match and what to do', async () => {
    const { rec, event } = await twoJobEvent();
    const { seeker, match } = await matchedSeeker(event);
    await matchesService(h).accept({ userId: seeker.user.id, matchId: match.id });
    await matchesService(h).accept({ userId: rec.user.id, matchId: match.id });
    await entryClosed(seeker);
    const res = await h.call({ method: 'POST', url: '/api/v1/queue/leave', token: seeker.token });
    expect(res.statusCode).toBe(409);
    expect(res.json()).toMatchObject({
      code: 'QUEUE_ENTRY_MATCH_ACCEPTED',
      details: { match_id: match.id, details_url: `http://jobfair.test/matches/${match.id}`, match_status: 'accepted' },
    });
    expect(res.json().error).toContain(match.id);
    expect((await h.knex('matches').where({ id: match.id }).first()).status).toBe('accepted');
  });
});
