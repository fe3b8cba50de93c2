import { createHarness, type Harness } from '../helpers/harness';
import { createJob, createLiveEvent, join, matchOf, queueStatus, roundCompleted } from '../matches/fixtures';

/**
 * Raising a live event's interview slots wakes the matchmaker at once (decision 0215), through the
 * real app: PATCH /team/live-events/{id} → a `slots_raised` kick → the matchmaker ends its batch
 * window and runs a round. The window is 10 minutes (the idle poll 100), so an offer within the
 * test's deadline can only come from that kick.
 */
describe('raising interview slots wakes the matchmaker', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      env: {
        MATCHMAKER_INTERVAL_MS: '600000',
        QUEUE_ENTRY_TTL_MS: '3600000',
        MATCH_ACCEPT_WINDOW_MS: '3600000',
        MATCH_MIN_SCORE: '0',
        MATCH_FLOOR_BRACKETS: '0:0:0',
      },
    });
  }, 60_000);
  afterAll(async () => h?.close());

  it('a seeker waiting for a full event gets an offer soon after the recruiter raises its slots', async () => {
    const rec = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 1, status: 'live' });
    await createJob(h, { event, essential_skills: ['TypeScript'] });

    // The one slot is taken by a first seeker (a round from the test process, or the matchmaker's first).
    const first = await h.seeker();
    await join(h, first, event.slug);
    await roundCompleted(h);
    await matchOf(h, first.user.id, { live_event_id: event.id, status: 'matched' }, 30_000);

    // A second seeker waits: a whole round sees the event full and offers nothing.
    const second = await h.seeker();
    await join(h, second, event.slug);
    await roundCompleted(h);
    expect((await queueStatus(h, second)).status).toBe('waiting');

    // The recruiter raises the slots through the API.
    const res = await h.call({
      method: 'PATCH',
      url: `/api/v1/team/live-events/${event.id}`,
      token: rec.token,
      payload: { interview_slots: 2 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().event.interview_slots).toBe(2);
    const m = await matchOf(h, second.user.id, { live_event_id: event.id }, 60_000);
    expect(m.status).toBe('matched');
  });
});
