import { randomUUID } from 'node:crypto';
import { loadConfig } from '#lib/config';
import {
  MATCH_WORKFLOW,
  acceptMatchUpdate,
  enteredRoomUpdate,
  matchStateQuery,
  matchWorkflowId,
  type MatchInput,
  type MatchWorkflow,
  type ProjectMatchInput,
} from '#workflows/matches/contract';
import {
  QUEUE_ENTRY_WORKFLOW,
  offerUpdate,
  queueEntryStateQuery,
  queueEntryWorkflowId,
  type QueueEntryInput,
  type QueueEntryWorkflow,
} from '#workflows/queue/contract';
import type { createMatchesActivities } from '#activities/matches/matches-activities';
import type { createQueueActivities, ProjectQueueEntryInput } from '#activities/queue/queue-activities';
import type { createMatchmakingActivities } from '#activities/matchmaking/matchmaking-activities';
import type { createDomainEventsActivities, EmitDomainEventInput } from '#activities/webhooks/domain-events';
import { createTimeSkipping, timerDurations, until, type TimeSkipping } from '../helpers/time-skipping';

/** Production durations: the config defaults, exactly as a deployment without overrides runs them. */
const {
  QUEUE_ENTRY_TTL_MS,
  MATCH_ACCEPT_WINDOW_MS,
  INTERVIEW_LENGTH_MS,
  MATCH_EXPIRY_REMINDER_MS,
  MATCH_NO_SHOW_GRACE_MS,
} = loadConfig({});
const minutes = (ms: number) => `${ms / 60_000} min`;
/** Workflow time runs on (at the speed of real time) while a workflow task or activity is in flight: room for a loaded machine. */
const SLACK_MS = 10_000;

type Stubs = Pick<
  ReturnType<typeof createMatchesActivities>,
  'projectMatch' | 'loadMatchSettings' | 'notifyMatchParties' | 'claimInterviewSlot'
> &
  Pick<ReturnType<typeof createQueueActivities>, 'projectQueueEntry'> &
  Pick<ReturnType<typeof createMatchmakingActivities>, 'kickMatchmaker'> &
  Pick<ReturnType<typeof createDomainEventsActivities>, 'emitDomainEvent'>;

/** The activities of both workflows (the match tells the seeker's queue entry how it ended), recording what they were asked. */
function stubs(o: { expiryReminderMs?: number } = {}) {
  const notices: string[] = [];
  const matchProjections: ProjectMatchInput['state'][] = [];
  const entryProjections: ProjectQueueEntryInput[] = [];
  const kicks: string[] = [];
  const events: EmitDomainEventInput[] = [];
  const activities: Stubs = {
    async projectMatch({ state }) {
      matchProjections.push(structuredClone(state));
    },
    async loadMatchSettings() {
      return { autoAcceptRecruiter: false, ...(o.expiryReminderMs ? { expiryReminderMs: o.expiryReminderMs } : {}) };
    },
    async notifyMatchParties({ kind }) {
      notices.push(kind);
      return { outboxIds: [], sent: 0 };
    },
    // The accepting recruiter has a free slot (decision 0244): the acceptance goes through.
    async claimInterviewSlot() {
      return { ok: true, recruiterName: 'Test Recruiter' };
    },
    async projectQueueEntry(input) {
      entryProjections.push(structuredClone(input));
    },
    async kickMatchmaker({ reason }) {
      kicks.push(reason);
    },
    async emitDomainEvent(event) {
      events.push(structuredClone(event));
      return { recorded: true };
    },
  };
  return { activities, matchProjections, entryProjections, kicks, events, notices };
}

describe('match on the time-skipping server (production durations, stubbed activities)', () => {
  let ts: TimeSkipping;
  beforeAll(async () => {
    ts = await createTimeSkipping();
  }, 300_000);
  afterAll(async () => ts?.teardown());

  /** A waiting queue entry that accepted the matchmaker's offer, and the match workflow for it. */
  async function matchedPair(taskQueue: string, o: { noShowGraceMs?: number } = {}) {
    const seekerUserId = randomUUID();
    const queueId = randomUUID();
    const matchId = randomUUID();
    const liveEventId = randomUUID();
    const jobId = randomUUID();
    const entryInput: QueueEntryInput = {
      queueId,
      userId: seekerUserId,
      liveEventId,
      liveEventSlug: 'acme-fair',
      agentIdentity: null,
      viaAgent: false,
      enteredAtMs: await ts.now(),
      ttlMs: QUEUE_ENTRY_TTL_MS,
    };
    const entry = await ts.env.client.workflow.start<QueueEntryWorkflow>(QUEUE_ENTRY_WORKFLOW, {
      taskQueue,
      workflowId: queueEntryWorkflowId(seekerUserId),
      args: [entryInput],
    });
    const offered = await entry.executeUpdate(offerUpdate, { args: [{ matchId, queueId, jobId, liveEventId }] });
    expect(offered.state).toMatchObject({ status: 'matched', matchId });
    const createdAtMs = await ts.now();
    const input: MatchInput = {
      matchId,
      queueEntryId: queueId,
      seekerUserId,
      recruiterUserIds: [randomUUID()],
      teamId: randomUUID(),
      jobId,
      jobTitle: 'Staff Engineer',
      liveEventId,
      liveEventSlug: 'acme-fair',
      seekerHeadline: null,
      seekerViaAgent: false,
      seekerAgentIdentity: null,
      matchScore: 0.8,
      scoreVersion: 'v1',
      scoreBreakdown: {},
      createdAtMs,
      acceptWindowMs: MATCH_ACCEPT_WINDOW_MS,
      interviewLengthMs: INTERVIEW_LENGTH_MS,
      ...(o.noShowGraceMs !== undefined ? { noShowGraceMs: o.noShowGraceMs } : {}),
    };
    const match = await ts.env.client.workflow.start<MatchWorkflow>(MATCH_WORKFLOW, {
      taskQueue,
      workflowId: matchWorkflowId(matchId),
      args: [input],
    });
    return { entry, match, matchId, createdAtMs, remainingTtlMs: offered.state.remainingTtlMs! };
  }

  it(
    `a match nobody accepts expires when the ${minutes(MATCH_ACCEPT_WINDOW_MS)} window passes ` +
      `(not before), and its queue entry is told and waits again`,
    async () => {
      const { activities, matchProjections, entryProjections, kicks, events, notices } = stubs();
      await ts.withWorker(activities, async (taskQueue) => {
        const { entry, match, matchId, createdAtMs, remainingTtlMs } = await matchedPair(taskQueue);
        await until(() => matchProjections.length > 0, 'the new match is projected');

        // One minute short of the window: still matched, and the entry with it.
        await ts.env.sleep(MATCH_ACCEPT_WINDOW_MS - 60_000);
        expect((await match.query(matchStateQuery)).status).toBe('matched');
        expect((await entry.query(queueEntryStateQuery)).status).toBe('matched');

        // Past the window by exactly as much time as it takes, not by awaiting the match's result
        // (which lets the server skip on to the next timer: the entry's TTL, once it waits again).
        await ts.env.sleep(60_000 + SLACK_MS);
        const result = await ts.client.workflow.getHandle<MatchWorkflow>(matchWorkflowId(matchId)).result();
        expect(result).toMatchObject({ status: 'expired', expiresAtMs: createdAtMs + MATCH_ACCEPT_WINDOW_MS });
        expect(result.expiredAtMs!).toBeGreaterThanOrEqual(createdAtMs + MATCH_ACCEPT_WINDOW_MS);
        expect(result.expiredAtMs! - (createdAtMs + MATCH_ACCEPT_WINDOW_MS)).toBeLessThan(SLACK_MS);
        expect(matchProjections.map((s) => s.status)).toEqual(['matched', 'expired']);
        const [window] = timerDurations(await match.fetchHistory());
        expect(window).toBeLessThanOrEqual(MATCH_ACCEPT_WINDOW_MS);
        expect(window).toBeGreaterThan(MATCH_ACCEPT_WINDOW_MS - SLACK_MS);

        // The entry got matchClosed(expired): waiting again with the TTL it had left, and it woke the matchmaker.
        await until(() => kicks.includes('entry_returned'), 'the returned entry kicks the matchmaker');
        const back = await entry.query(queueEntryStateQuery);
        expect(back).toMatchObject({ status: 'waiting', matchId: null, remainingTtlMs: null });
        expect(back.expiresAtMs - result.expiredAtMs!).toBeGreaterThanOrEqual(remainingTtlMs - SLACK_MS);
        expect(back.expiresAtMs - result.expiredAtMs!).toBeLessThanOrEqual(remainingTtlMs + SLACK_MS);
        expect(entryProjections.map((p) => p.state.status)).toEqual(['waiting', 'matched', 'waiting']);
        expect(kicks.sort()).toEqual(['entry_returned', 'slot_freed']);
        expect(events.map((e) => e.type)).toEqual(['match.matched']);
        expect(events[0].data).toMatchObject({ match_id: matchId });
        // Both sides were told by e-mail: the match, then its expiry (no reminder configured here).
        expect(notices).toEqual(['matched', 'expired']);
        await entry.terminate('test over');
      });
    },
  );

  it(
    `reminds the parties ${minutes(MATCH_EXPIRY_REMINDER_MS)} before the match expires (not ` +
      `earlier), then tells them it expired`,
    async () => {
      const { activities, notices, matchProjections } = stubs({ expiryReminderMs: MATCH_EXPIRY_REMINDER_MS });
      await ts.withWorker(activities, async (taskQueue) => {
        const { entry, matchId, createdAtMs } = await matchedPair(taskQueue);
        await until(() => matchProjections.length > 0, 'the new match is projected');
        await ts.env.sleep(MATCH_ACCEPT_WINDOW_MS - MATCH_EXPIRY_REMINDER_MS - 60_000);
        expect(notices).toEqual(['matched']);
        await ts.env.sleep(60_000 + SLACK_MS);
        await until(() => notices.includes('expiring'), 'the expiry reminder is sent');
        await ts.env.sleep(MATCH_EXPIRY_REMINDER_MS);
        const result = await ts.client.workflow.getHandle<MatchWorkflow>(matchWorkflowId(matchId)).result();
        expect(result).toMatchObject({ status: 'expired', expiresAtMs: createdAtMs + MATCH_ACCEPT_WINDOW_MS });
        expect(notices).toEqual(['matched', 'expiring', 'expired']);
        await entry.terminate('test over');
      });
    },
  );

  it(
    `an accepted match completes when the ${minutes(INTERVIEW_LENGTH_MS)} interview length ` +
      `elapses, and its queue entry finishes`,
    async () => {
      const { activities, matchProjections, entryProjections, kicks, events } = stubs();
      await ts.withWorker(activities, async (taskQueue) => {
        const { entry, match, matchId } = await matchedPair(taskQueue);
        await ts.env.sleep(MATCH_ACCEPT_WINDOW_MS / 2);
        const seekerUserId = (await match.query(matchStateQuery)).seekerUserId;
        await match.executeUpdate(acceptMatchUpdate, { args: [{ userId: seekerUserId, role: 'seeker' }] });
        const accepted = await match.executeUpdate(acceptMatchUpdate, {
          args: [{ userId: randomUUID(), role: 'recruiter' }],
        });
        expect(accepted.state.status).toBe('accepted');
        const acceptedAtMs = accepted.state.acceptedAtMs!;
        expect(accepted.state.interviewEndsAtMs).toBe(acceptedAtMs + INTERVIEW_LENGTH_MS);

        // The entry is done once its match is accepted (read without unlocking the clock).
        expect(await ts.client.workflow.getHandle<QueueEntryWorkflow>(entry.workflowId).result()).toMatchObject({
          status: 'matched',
          finished: true,
          endReason: 'match accepted',
          matchId,
        });

        // Nothing else runs now, so awaiting the result may let the server skip to the interview's end.
        const result = await match.result();
        expect(result.status).toBe('completed');
        expect(result.completedBy).toBeNull();
        expect(result.completedAtMs!).toBeGreaterThanOrEqual(acceptedAtMs + INTERVIEW_LENGTH_MS);
        expect(result.completedAtMs! - (acceptedAtMs + INTERVIEW_LENGTH_MS)).toBeLessThan(SLACK_MS);
        expect(matchProjections.map((s) => s.status)).toEqual(['matched', 'matched', 'accepted', 'completed']);
        expect(entryProjections.at(-1)).toMatchObject({ state: { status: 'matched', finished: true } });
        expect(events.map((e) => e.type)).toEqual(['match.matched', 'match.accepted', 'interview.completed']);
        expect(kicks).toEqual(['slot_freed']);
      });
    },
  );

  it(
    `an accepted match whose recruiter has not come to the room ${minutes(MATCH_NO_SHOW_GRACE_MS)} ` +
      `after acceptance ends as a no-show (not before): never an interview, the slot is freed`,
    async () => {
      const { activities, matchProjections, kicks, events, notices } = stubs();
      await ts.withWorker(activities, async (taskQueue) => {
        const { match, matchId } = await matchedPair(taskQueue, { noShowGraceMs: MATCH_NO_SHOW_GRACE_MS });
        const seekerUserId = (await match.query(matchStateQuery)).seekerUserId;
        await match.executeUpdate(acceptMatchUpdate, { args: [{ userId: seekerUserId, role: 'seeker' }] });
        const accepted = await match.executeUpdate(acceptMatchUpdate, {
          args: [{ userId: randomUUID(), role: 'recruiter' }],
        });
        const acceptedAtMs = accepted.state.acceptedAtMs!;
        expect(accepted.state.arriveByMs).toBe(acceptedAtMs + MATCH_NO_SHOW_GRACE_MS);
        // The seeker comes to the room (a reload sends it again: the first arrival counts).
        const inRoom = await match.executeUpdate(enteredRoomUpdate, {
          args: [{ userId: seekerUserId, role: 'seeker' }],
        });
        const again = await match.executeUpdate(enteredRoomUpdate, {
          args: [{ userId: seekerUserId, role: 'seeker' }],
        });
        expect(again.state.seekerInRoomAtMs).toBe(inRoom.state.seekerInRoomAtMs);
        expect(again.state.recruiterInRoomAtMs).toBeNull();

        // One minute short of the grace time: still accepted.
        await ts.env.sleep(MATCH_NO_SHOW_GRACE_MS - 60_000);
        expect((await match.query(matchStateQuery)).status).toBe('accepted');

        const result = await match.result();
        expect(result).toMatchObject({ status: 'no_show', noShowMissing: 'recruiter', completedAtMs: null });
        expect(result.noShowAtMs!).toBeGreaterThanOrEqual(acceptedAtMs + MATCH_NO_SHOW_GRACE_MS);
        expect(result.noShowAtMs! - (acceptedAtMs + MATCH_NO_SHOW_GRACE_MS)).toBeLessThan(SLACK_MS);
        expect(matchProjections.at(-1)).toMatchObject({ status: 'no_show', noShowMissing: 'recruiter' });
        // Not an interview: no interview.completed, and the freed slot wakes the matchmaker.
        expect(events.map((e) => e.type)).toEqual(['match.matched', 'match.accepted', 'match.no_show']);
        expect(events[2].data).toMatchObject({ match_id: matchId, missing: 'recruiter' });
        expect(notices).toEqual(['matched', 'accepted', 'no_show']);
        expect(kicks).toEqual(['slot_freed']);
        // The grace timer was the production one, not the interview length.
        const timers = timerDurations(await match.fetchHistory());
        expect(timers.some((t) => t <= MATCH_NO_SHOW_GRACE_MS && t > MATCH_NO_SHOW_GRACE_MS - SLACK_MS)).toBe(true);
      });
    },
  );
});
