import fs from 'node:fs';
import path from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { loadConfig } from '#lib/config';
import { startThrowawayInfrastructure } from './stack';
import { ensureDatabase } from './postgres-server';
import { createKnex, migrateLatest } from '#db/knex';
import { TEMPLATE_DB } from '#test/helpers/env';
import { createHarness, eventually, type Harness, type TestUser } from '#test/helpers/harness';
import { createEvent, createJob, transition } from '#test/events/helpers';
import { join, matchOf, queueStatus, roundCompleted } from '#test/matches/fixtures';
import { startReceiver, startSmtp, type Receiver } from '#test/webhooks/helpers';
import { WebClient } from '#test/helpers/web-client';
import { outboxEmailWorkflowId } from '#workflows/notifications/contract';
import { emitterFor } from '#test/webhooks/emit';
import { historyToJSONObject, workflowTypeOf } from '#test/replay/history-json';
import { WORKFLOWS_PATH } from '#apps/worker/src/worker';
import { queueEntryWorkflowId } from '#workflows/queue/contract';
import { matchWorkflowId } from '#workflows/matches/contract';
import { liveEventWorkflowId } from '#workflows/events/contract';
import { MATCHMAKER_ROUND_MAX_OFFERS, matchmakerWorkflowId } from '#workflows/matchmaking/contract';
import {
  webhookDeliveryWorkflowId,
  webhookDispatcherWorkflowId,
  webhookSubscriptionWorkflowId,
} from '#workflows/webhooks/contract';
import { billingAccountWorkflowId } from '#workflows/billing/contract';
import { retentionWorkflowId } from '#workflows/retention/contract';
import { ensureRetention } from '#workflows/retention/client';
import { signalBillingEvent } from '#workflows/billing/client';
import { billingStatus, CARDS, checkoutAndPay } from '#test/billing/helpers';

/**
 * Captures the event histories that test/replay/replay.test.ts replays against the current
 * workflow code: every workflow type through its realistic paths, on the real stack (isolated
 * PostgreSQL + Temporal dev server, the real API, worker and activities, millisecond schedules).
 *
 *   npx tsx dev/capture-histories.ts                 write the histories that are missing
 *   npx tsx dev/capture-histories.ts --overwrite     replace existing ones too
 *   npx tsx dev/capture-histories.ts --tag v2        write new ones as <type>-<case>-v2.json beside the old
 *   npx tsx dev/capture-histories.ts --only matchWorkflow,queueEntryWorkflow
 *   npx tsx dev/capture-histories.ts --out /tmp/histories   somewhere else (to look, or to check the script still runs)
 *
 * Existing histories are the record of what older code did; see test/replay/README.md for when
 * replacing them is right (almost never).
 */
const ROOT = path.resolve(__dirname, '..');

const args = process.argv.slice(2);
const flag = (name: string) => args.includes(name);
const option = (name: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const OUT = path.resolve(option('--out') ?? path.join(ROOT, 'test', 'replay', 'histories'));
const overwrite = flag('--overwrite');
const tag = option('--tag');
const only = option('--only')
  ?.split(',')
  .map((s) => s.trim());
if (tag !== undefined && !/^[a-z0-9][a-z0-9-]*$/.test(tag))
  throw new Error(`--tag ${tag}: lowercase letters, digits and dashes`);

const results: Array<{ file: string; events: number; bytes: number; written: boolean }> = [];

/** Identities name this machine (`pid@host`); replay never reads them. */
function scrub(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(scrub);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k === 'identity' && typeof v === 'string' ? 'capture-histories' : scrub(v),
      ]),
    );
  }
  return value;
}

async function waitClosed(h: Harness, workflowId: string, timeoutMs = 30_000): Promise<void> {
  await eventually(
    async () => (await h.temporal.workflow.getHandle(workflowId).describe()).status.name !== 'RUNNING',
    timeoutMs,
    100,
  );
}

/** Fetches a workflow's history and writes it as `<workflowType>-<case>.json` (checking that the type is the one expected). */
async function save(
  h: Harness,
  workflowType: string,
  caseName: string,
  workflowId: string,
  runId?: string,
): Promise<void> {
  if (only && !only.includes(workflowType)) return;
  const history = await h.temporal.workflow.getHandle(workflowId, runId).fetchHistory();
  const actual = workflowTypeOf(history);
  if (actual !== workflowType) throw new Error(`${workflowId} is a ${actual}, not a ${workflowType}`);
  const file = path.join(OUT, `${workflowType}-${caseName}${tag ? `-${tag}` : ''}.json`);
  const text = `${JSON.stringify(scrub(historyToJSONObject(history)), null, 1)}\n`;
  const written = overwrite || !fs.existsSync(file);
  if (written) fs.writeFileSync(file, text);
  results.push({ file: path.relative(ROOT, file), events: history.events?.length ?? 0, bytes: text.length, written });
  console.log(
    `[capture] ${written ? 'wrote' : 'kept (exists)'} ${path.relative(ROOT, file)} (${history.events?.length} events)`,
  );
}

async function ok(res: Promise<{ statusCode: number; body: string }>, what: string) {
  const r = await res;
  if (r.statusCode >= 300) throw new Error(`${what}: ${r.statusCode} ${r.body}`);
  return r;
}

async function withHarness(env: Record<string, string>, fn: (h: Harness) => Promise<void>) {
  const h = await createHarness({ env });
  try {
    await fn(h);
  } finally {
    await h.close();
  }
}

/**
 * One interviewer per match (decision 0244, patch 'match-accepter-is-interviewer'): a match offered
 * to one recruiter is accepted by her teammate (the slot moves to the teammate); the teammate's next
 * acceptance is refused (no free slot) and the one it was offered to accepts it instead.
 */
async function teammateAccepts(h: Harness) {
  const offeredTo = await h.recruiter();
  const teammate = await h.recruiter({ teamId: offeredTo.teamId! });
  const event = await createEvent(h, offeredTo, { interview_slots: 2 });
  const availability = h.app.services.deps.repos.availability;
  await availability.upsert(event.id, offeredTo.user.id, { available: true, capacity: 2 });
  await availability.upsert(event.id, teammate.user.id, { available: false, capacity: 1 });
  await createJob(h, offeredTo, event.id, { title: 'Compiler Engineer' });
  await ok(transition(h, offeredTo, event.id, 'go-live'), 'go-live');
  const matches = h.app.services.matches;
  const [first, second] = [await h.seeker(), await h.seeker()];
  await join(h, first, event.slug);
  const m1 = await matchOf(h, first.user.id);
  await join(h, second, event.slug);
  const m2 = await matchOf(h, second.user.id);
  await matches.accept({ userId: teammate.user.id, matchId: m1.id });
  const refused = await matches.accept({ userId: teammate.user.id, matchId: m2.id }).then(
    () => null,
    (err: { code?: string }) => err.code,
  );
  if (refused !== 'MATCH_RECRUITER_AT_CAPACITY') throw new Error(`expected a refusal at capacity, got ${refused}`);
  await matches.accept({ userId: offeredTo.user.id, matchId: m2.id });
  await matches.accept({ userId: first.user.id, matchId: m1.id });
  await matches.completeInterview({ userId: teammate.user.id, matchId: m1.id });
  await waitClosed(h, matchWorkflowId(m1.id));
  await save(h, 'matchWorkflow', 'teammate-accepted-completed', matchWorkflowId(m1.id));
  await ok(
    h.call({
      method: 'POST',
      url: `/api/v1/matches/${m2.id}/decline`,
      token: second.token,
      payload: { reason: 'Found another role' },
    }),
    'decline',
  );
  await waitClosed(h, matchWorkflowId(m2.id));
  await save(h, 'matchWorkflow', 'teammate-refused-at-capacity-declined', matchWorkflowId(m2.id));
}

/** Live event lifecycle, queue entries that leave, are drained, are matched and accepted or declined; matches accepted → completed and declined; the matchmaker; a changelog announcement. */
async function fair(h: Harness) {
  const rec = await h.recruiter();
  await quietEvent(h, rec);
  // An event with one job and one interview slot.
  const busy = await createEvent(h, rec);
  await ok(transition(h, rec, busy.id, 'go-live'), 'go-live');
  await createJob(h, rec, busy.id, { title: 'Staff Engineer' });
  await acceptedAndCompleted(h, rec, busy);
  await declinedBackToWaiting(h, busy);
  await leftWhileMatched(h, busy);
  // Still running (it never ends; continue-as-new comes only after thousands of events): its history so far.
  await save(h, 'matchmakerWorkflow', 'rounds-with-offers', matchmakerWorkflowId(h.config.TEMPORAL_TASK_QUEUE));
  await burstOverTheRoundBound(h, rec);
  await changelogAnnounced(h);
}

type LiveEvent = Awaited<ReturnType<typeof createEvent>>;

/** An event without jobs, where nobody is matched: a seeker leaves, another is drained when it ends. */
async function quietEvent(h: Harness, rec: TestUser) {
  const quiet = await createEvent(h, rec);
  await ok(transition(h, rec, quiet.id, 'go-live'), 'go-live');
  const leaver = await h.seeker();
  await join(h, leaver, quiet.slug);
  await ok(h.call({ method: 'POST', url: '/api/v1/queue/leave', token: leaver.token }), 'leave');
  await waitClosed(h, queueEntryWorkflowId(leaver.user.id));
  await save(h, 'queueEntryWorkflow', 'join-leave', queueEntryWorkflowId(leaver.user.id));

  const drained = await h.seeker();
  await join(h, drained, quiet.slug);
  for (const move of ['pause', 'resume', 'end'] as const) await ok(transition(h, rec, quiet.id, move), move);
  await waitClosed(h, liveEventWorkflowId(quiet.id));
  await save(h, 'liveEventWorkflow', 'go-live-pause-resume-end-drain', liveEventWorkflowId(quiet.id));
  await waitClosed(h, queueEntryWorkflowId(drained.user.id));
  await save(h, 'queueEntryWorkflow', 'join-event-ended', queueEntryWorkflowId(drained.user.id));
}

/** A match both accept; both meet in the room, then the recruiter ends the interview. */
async function acceptedAndCompleted(h: Harness, rec: TestUser, busy: LiveEvent) {
  const matches = h.app.services.matches;
  const accepting = await h.seeker();
  await join(h, accepting, busy.slug);
  const m1 = await matchOf(h, accepting.user.id);
  await matches.accept({ userId: accepting.user.id, matchId: m1.id });
  await matches.accept({ userId: rec.user.id, matchId: m1.id });
  await waitClosed(h, queueEntryWorkflowId(accepting.user.id));
  await save(h, 'queueEntryWorkflow', 'join-matched-accepted', queueEntryWorkflowId(accepting.user.id));
  // Both meet in the room (the interview clock starts: update bothInRoom, twice as on a reconnect), then one ends it.
  await matches.startInterviewClock({ userId: accepting.user.id, matchId: m1.id });
  await matches.startInterviewClock({ userId: rec.user.id, matchId: m1.id });
  await matches.completeInterview({ userId: rec.user.id, matchId: m1.id });
  await waitClosed(h, matchWorkflowId(m1.id));
  await save(h, 'matchWorkflow', 'accepted-both-in-room-completed', matchWorkflowId(m1.id));
}

/** A match the seeker declines: back to waiting in its old place, then it leaves. */
async function declinedBackToWaiting(h: Harness, busy: LiveEvent) {
  const declining = await h.seeker();
  await join(h, declining, busy.slug);
  const m2 = await matchOf(h, declining.user.id);
  await ok(
    h.call({
      method: 'POST',
      url: `/api/v1/matches/${m2.id}/decline`,
      token: declining.token,
      payload: { reason: 'Not the right time' },
    }),
    'decline',
  );
  await waitClosed(h, matchWorkflowId(m2.id));
  await save(h, 'matchWorkflow', 'declined', matchWorkflowId(m2.id));
  // Back to waiting in its old place (the declined pair is not proposed again), then it leaves.
  await eventually(async () => (await queueStatus(h, declining)).status === 'waiting');
  await ok(h.call({ method: 'POST', url: '/api/v1/queue/leave', token: declining.token }), 'leave');
  await waitClosed(h, queueEntryWorkflowId(declining.user.id));
  await save(h, 'queueEntryWorkflow', 'matched-declined-waiting-leave', queueEntryWorkflowId(declining.user.id));
}

/**
 * Leaving while matched: the seeker's decline carries leaveQueue, and the match tells the entry to
 * end `left` without waiting in between (patches match-decline-leaves-queue and
 * queue-entry-leaves-with-declined-match).
 */
async function leftWhileMatched(h: Harness, busy: LiveEvent) {
  const leavingMatched = await h.seeker();
  await join(h, leavingMatched, busy.slug);
  const m5 = await matchOf(h, leavingMatched.user.id);
  await ok(h.call({ method: 'POST', url: '/api/v1/queue/leave', token: leavingMatched.token }), 'leave while matched');
  await waitClosed(h, matchWorkflowId(m5.id));
  await save(h, 'matchWorkflow', 'declined-left-queue', matchWorkflowId(m5.id));
  await waitClosed(h, queueEntryWorkflowId(leavingMatched.user.id));
  await save(h, 'queueEntryWorkflow', 'matched-left-with-declined-match', queueEntryWorkflowId(leavingMatched.user.id));
}

/**
 * A burst bigger than one round's offer bound (MATCHMAKER_ROUND_MAX_OFFERS, from the bounded fast rounds): seekers
 * wait at an event without jobs, then a job opens; the round that finds them stops at the bound
 * and says `more`, and the next follows at once (patch 'matchmaker-bounded-rounds').
 */
async function burstOverTheRoundBound(h: Harness, rec: TestUser) {
  const burst = await createEvent(h, rec, { interview_slots: MATCHMAKER_ROUND_MAX_OFFERS + 8 });
  await ok(transition(h, rec, burst.id, 'go-live'), 'go-live');
  const crowd: TestUser[] = [];
  for (let i = 0; i < MATCHMAKER_ROUND_MAX_OFFERS + 4; i++) {
    const s = await h.seeker();
    await join(h, s, burst.slug);
    crowd.push(s);
  }
  await createJob(h, rec, burst.id, { title: 'Platform Engineer' });
  await eventually(
    async () => (await Promise.all(crowd.map((s) => queueStatus(h, s)))).every((q) => q.status === 'matched'),
    60_000,
    200,
  );
  await save(h, 'matchmakerWorkflow', 'bounded-rounds', matchmakerWorkflowId(h.config.TEMPORAL_TASK_QUEUE));
}

/** The app announces every changelog entry at start. */
async function changelogAnnounced(h: Harness) {
  const announcement = await eventually(async () =>
    h.knex('changelog_announcements').where({ state: 'started' }).orderBy('entry_id').first(),
  );
  await waitClosed(h, announcement.workflow_id);
  await save(h, 'changelogAnnouncementWorkflow', 'announce', announcement.workflow_id);
}

/**
 * A freed slot skips the batch window (decision 0215, patch 'matchmaker-slot-freed-skips-window'):
 * with a 60 s window, a second seeker waits for a full one-slot event; the first seeker's match is
 * declined, and the round that offers the slot to the second runs at once, cutting the window short.
 */
async function slotFreed(h: Harness) {
  const rec = await h.recruiter();
  const event = await createEvent(h, rec);
  await ok(transition(h, rec, event.id, 'go-live'), 'go-live');
  await createJob(h, rec, event.id, { title: 'Site Reliability Engineer' });
  // The go-live's kick ran a round; the joins' kicks fall inside its window. The first seeker is
  // matched by a round run from here, the second waits while the matchmaker waits out the window.
  const first = await h.seeker();
  await join(h, first, event.slug);
  await roundCompleted(h);
  const m = await matchOf(h, first.user.id);
  const second = await h.seeker();
  await join(h, second, event.slug);
  const id = matchmakerWorkflowId(h.config.TEMPORAL_TASK_QUEUE);
  const openTimers = async () => {
    const events = (await h.temporal.workflow.getHandle(id).fetchHistory()).events ?? [];
    const n = (f: (e: (typeof events)[number]) => unknown) => events.filter(f).length;
    return (
      n((e) => e.timerStartedEventAttributes) -
      n((e) => e.timerFiredEventAttributes) -
      n((e) => e.timerCanceledEventAttributes)
    );
  };
  await eventually(async () => (await openTimers()) > 0, 30_000, 100);
  await ok(
    h.call({
      method: 'POST',
      url: `/api/v1/matches/${m.id}/decline`,
      token: first.token,
      payload: { reason: 'Not the right time' },
    }),
    'decline',
  );
  await eventually(async () => (await queueStatus(h, second)).status === 'matched', 30_000, 100);
  await save(h, 'matchmakerWorkflow', 'slot-freed-skips-window', id);
}

/** The timers: a match nobody accepts expires, its entry waits again and then outlives its TTL; an accepted match completes when the interview length elapses. */
async function timers(h: Harness) {
  const rec = await h.recruiter();
  const event = await createEvent(h, rec);
  await ok(transition(h, rec, event.id, 'go-live'), 'go-live');
  await createJob(h, rec, event.id);
  const matches = h.app.services.matches;

  const idle = await h.seeker();
  await join(h, idle, event.slug);
  const m3 = await matchOf(h, idle.user.id);
  await waitClosed(h, matchWorkflowId(m3.id));
  await save(h, 'matchWorkflow', 'expired', matchWorkflowId(m3.id));
  await waitClosed(h, queueEntryWorkflowId(idle.user.id));
  await save(h, 'queueEntryWorkflow', 'matched-match-expired-ttl-expired', queueEntryWorkflowId(idle.user.id));

  const talker = await h.seeker();
  await join(h, talker, event.slug);
  const m4 = await matchOf(h, talker.user.id);
  await matches.accept({ userId: talker.user.id, matchId: m4.id });
  await matches.accept({ userId: rec.user.id, matchId: m4.id });
  await waitClosed(h, matchWorkflowId(m4.id));
  await save(h, 'matchWorkflow', 'accepted-interview-length-elapsed', matchWorkflowId(m4.id));
}

async function createHook(h: Harness, u: TestUser, target: string): Promise<{ id: string }> {
  const r = await ok(
    h.call({
      method: 'POST',
      url: '/api/v1/webhooks',
      token: u.token,
      payload: { target_url: target, events: ['match.matched'] },
    }),
    'create webhook',
  );
  return JSON.parse(r.body) as { id: string };
}
const deliveryState = async (h: Harness, webhookId: string, eventId: string) =>
  (await h.knex('webhook_deliveries').where({ subscription_id: webhookId, event_id: eventId, run: 1 }).first())
    ?.state as string | undefined;
const FINAL = ['delivered', 'dead_letter', 'not_accepted_paused', 'oversize', 'cancelled'];

type Emit = ReturnType<typeof emitterFor>;

/** Emits an event to `u`'s hook and waits until its delivery is `expected` (and its workflow closed, unless a dead letter). */
async function deliver(h: Harness, emit: Emit, u: TestUser, hook: { id: string }, expected: string) {
  const e = await emit({ type: 'match.matched', ownerUserIds: [u.user.id] });
  await eventually(async () => (await deliveryState(h, hook.id, e.id)) === expected, 30_000);
  // A dead letter stays open waiting for its replay (decision 0196).
  if (expected !== 'dead_letter') await waitClosed(h, webhookDeliveryWorkflowId(hook.id, e.id));
  return webhookDeliveryWorkflowId(hook.id, e.id);
}

/** Deliveries delivered, retried then delivered, dead-lettered, the test event; a subscription through failures, auto-pause, resume, disable and delete. */
async function webhooks(h: Harness, rx: Receiver) {
  const emit = emitterFor(h);
  await firstAttemptAndTestEvent(h, emit, rx);
  const patient = await h.seeker();
  const flakyHook = await createHook(h, patient, rx.url('/flaky'));
  await save(
    h,
    'webhookDeliveryWorkflow',
    'retried-then-delivered',
    await deliver(h, emit, patient, flakyHook, 'delivered'),
  );
  await failingSubscription(h, emit, rx);
  await deadLetterReplayed(h, emit, rx);
}

/** Delivered at the first attempt: the dispatcher did it, no delivery workflow (decision 0195); then the test event. */
async function firstAttemptAndTestEvent(h: Harness, emit: Emit, rx: Receiver) {
  const happy = await h.seeker();
  const okHook = await createHook(h, happy, rx.url('/ok'));
  // The dispatcher's open history is saved.
  const firstTry = await emit({ type: 'match.matched', ownerUserIds: [happy.user.id] });
  await eventually(async () => (await deliveryState(h, okHook.id, firstTry.id)) === 'delivered', 30_000);
  await eventually(
    async () =>
      (await h.knex('webhook_deliveries').where({ subscription_id: okHook.id, event_id: firstTry.id }).first())
        ?.first_attempt_due_at === null,
    30_000,
  );
  await save(
    h,
    'webhookDispatcherWorkflow',
    'first-attempts',
    webhookDispatcherWorkflowId(h.config.TEMPORAL_TASK_QUEUE),
  );
  await ok(h.call({ method: 'POST', url: `/api/v1/webhooks/${okHook.id}/test`, token: happy.token }), 'test event');
  const test = await h.knex('webhook_deliveries').where({ subscription_id: okHook.id, source: 'test' }).first();
  await waitClosed(h, webhookDeliveryWorkflowId(okHook.id, test.event_id));
  await save(
    h,
    'webhookDeliveryWorkflow',
    'test-event-first-outcome',
    webhookDeliveryWorkflowId(okHook.id, test.event_id),
  );
}

/** A receiver that is down: a dead letter, the subscription paused by failures, resumed, disabled, deleted. */
async function failingSubscription(h: Harness, emit: Emit, rx: Receiver) {
  const unlucky = await h.seeker();
  const downHook = await createHook(h, unlucky, rx.url('/down'));
  await save(
    h,
    'webhookDeliveryWorkflow',
    'dead-letter-waiting',
    await deliver(h, emit, unlucky, downHook, 'dead_letter'),
  );
  // The seventh consecutive failure pauses the subscription (and queues the owner's e-mail); the
  // retry that comes due while paused is not sent.
  const e2 = await emit({ type: 'match.matched', ownerUserIds: [unlucky.user.id] });
  await eventually(
    async () => (await h.knex('webhook_subscriptions').where({ id: downHook.id }).first()).status === 'paused',
    30_000,
  );
  await eventually(async () => FINAL.includes((await deliveryState(h, downHook.id, e2.id)) ?? ''), 30_000);
  if ((await deliveryState(h, downHook.id, e2.id)) !== 'dead_letter')
    await waitClosed(h, webhookDeliveryWorkflowId(downHook.id, e2.id));
  await save(
    h,
    'webhookDeliveryWorkflow',
    'failed-then-subscription-paused',
    webhookDeliveryWorkflowId(downHook.id, e2.id),
  );
  const url = `/api/v1/webhooks/${downHook.id}`;
  for (const [status, what] of [
    ['active', 'resume'],
    ['disabled', 'disable'],
  ] as const)
    await ok(h.call({ method: 'PATCH', url, token: unlucky.token, payload: { status } }), what);
  await ok(h.call({ method: 'DELETE', url, token: unlucky.token }), 'delete');
  await waitClosed(h, webhookSubscriptionWorkflowId(downHook.id));
  await save(
    h,
    'webhookSubscriptionWorkflow',
    'failures-auto-pause-resume-disable-delete',
    webhookSubscriptionWorkflowId(downHook.id),
  );
}

/** Replayed: the waiting dead letter marks itself and continues as run 2 (decision 0196). */
async function deadLetterReplayed(h: Harness, emit: Emit, rx: Receiver) {
  const again = await h.seeker();
  const againHook = await createHook(h, again, rx.url('/down'));
  const deadId = await deliver(h, emit, again, againHook, 'dead_letter');
  const deadRun = (await h.temporal.workflow.getHandle(deadId).describe()).runId;
  const replay = () =>
    h.call({
      method: 'POST',
      url: `/api/v1/webhooks/${againHook.id}/deliveries/${deadId.split(':')[2]}/replay`,
      token: again.token,
    });
  // The row says dead_letter a moment before the workflow waits for its replay (it still tells the
  // subscription of the failure): a replay refused as still in progress is asked again.
  for (const deadline = Date.now() + 30_000; ; await new Promise((r) => setTimeout(r, 100))) {
    const r = await replay();
    if (r.statusCode !== 409 || !r.body.includes('DELIVERY_IN_PROGRESS') || Date.now() > deadline) {
      await ok(Promise.resolve(r), 'replay dead letter');
      break;
    }
  }
  await eventually(
    async () => (await h.temporal.workflow.getHandle(deadId, deadRun).describe()).status.name !== 'RUNNING',
    30_000,
    100,
  );
  await save(h, 'webhookDeliveryWorkflow', 'dead-letter-replayed', deadId, deadRun);
}

/** A retry waiting on a long timer when its subscription is deleted: the delivery ends as cancelled. */
async function cancelled(h: Harness, rx: Receiver) {
  const emit = emitterFor(h);
  const u = await h.seeker();
  const hook = await createHook(h, u, rx.url('/down'));
  const e = await emit({ type: 'match.matched', ownerUserIds: [u.user.id] });
  await eventually(async () => (await deliveryState(h, hook.id, e.id)) === 'retrying', 30_000);
  await ok(h.call({ method: 'DELETE', url: `/api/v1/webhooks/${hook.id}`, token: u.token }), 'delete');
  await waitClosed(h, webhookDeliveryWorkflowId(hook.id, e.id));
  await save(h, 'webhookDeliveryWorkflow', 'retrying-cancelled-by-delete', webhookDeliveryWorkflowId(hook.id, e.id));
  await waitClosed(h, webhookSubscriptionWorkflowId(hook.id));
  await save(h, 'webhookSubscriptionWorkflow', 'deleted-while-retrying', webhookSubscriptionWorkflowId(hook.id));
}

/**
 * The billing-account actor (it never ends: its open history is saved once it is idle): checkout with consent, a declined
 * upgrade, renewals that fail → past_due → retries → free; and checkout with 3-D Secure, an upgrade that waits for
 * authentication, a provider event, cancel at period end.
 */
async function billing(h: Harness) {
  const a = await h.recruiter();
  await checkoutAndPay(h, a, { plan: 'pro', interval: 'month', card: CARDS.declineOffSession });
  await h.call({
    method: 'POST',
    url: '/api/v1/billing/charge-offsession',
    token: a.token,
    payload: { target_plan: 'enterprise', interval: 'month' },
  });
  await eventually(async () => (await billingStatus(h, a)).plan === 'free', 30_000, 100);
  await save(
    h,
    'billingAccountWorkflow',
    'checkout-declined-upgrade-dunning-downgrade',
    billingAccountWorkflowId(a.teamId!),
  );

  const b = await h.recruiter();
  await checkoutAndPay(h, b, { plan: 'pro', interval: 'year', card: CARDS.authenticate, mode: 'embedded' });
  const r = await h.call({
    method: 'POST',
    url: '/api/v1/billing/charge-offsession',
    token: b.token,
    payload: { target_plan: 'enterprise', interval: 'year' },
  });
  const { event } = await h.app.services.localPayments!.authenticate(JSON.parse(r.body).details.payment_id, true);
  await h.app.services.billing.deliverLocalEvent(event);
  await eventually(async () => (await billingStatus(h, b)).plan === 'enterprise', 30_000, 100);
  await signalBillingEvent(h.temporal, h.config, b.teamId!, {
    eventId: 'evt_capture_sub_1',
    type: 'subscription.updated',
    atMs: Date.now(),
    status: 'active',
    cancelAtPeriodEnd: false,
  });
  await ok(h.call({ method: 'POST', url: '/api/v1/billing/cancel', token: b.token }), 'cancel');
  await save(h, 'billingAccountWorkflow', 'sca-upgrade-provider-event-cancel', billingAccountWorkflowId(b.teamId!));
}

/** A sign-up confirmation e-mail sent by the worker through a real SMTP server (decision 0182). */
async function outboxEmail(h: Harness) {
  const email = 'capture.signup@example.test';
  const res = await new WebClient(h.app).submit('/signup', '/signup', {
    display_name: 'Capture Person',
    email,
    password: 'a long enough password',
    role: 'seeker',
  });
  if (res.headers.location !== '/signup/sent') throw new Error(`sign-up: ${res.statusCode} ${res.body}`);
  const row = await eventually(async () => h.knex('email_outbox').where({ to_address: email }).first());
  await waitClosed(h, outboxEmailWorkflowId(row.id));
  await save(h, 'outboxEmailWorkflow', 'signup-confirmation-sent', outboxEmailWorkflowId(row.id));
}

/**
 * The retention workflow (decision 0267): a pass whose call runs out of budget and calls again at
 * once (25 idempotency keys past the window, batches of 10, one more batch per call), then passes
 * that find nothing and sleep in between. It never ends: its history so far is saved.
 */
async function retention(h: Harness) {
  const s = await h.seeker();
  const token = await h.knex('api_tokens').where({ user_id: s.user.id }).first();
  await h.knex('idempotency_keys').insert(
    Array.from({ length: 25 }, (_, i) => ({
      token_id: token.id,
      key: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`,
      method: 'POST',
      route: '/api/v1/queue/join',
      request_hash: 'x',
      state: 'completed',
      created_at: new Date(Date.now() - 25 * 60 * 60 * 1000),
    })),
  );
  await ensureRetention(h.temporal, h.config);
  const handle = h.temporal.workflow.getHandle(retentionWorkflowId(h.config.TEMPORAL_TASK_QUEUE));
  await eventually(
    async () => ((await handle.fetchHistory()).events ?? []).filter((e) => e.timerFiredEventAttributes).length >= 2,
    30_000,
  );
  await save(h, 'retentionWorkflow', 'batches-then-idle-passes', retentionWorkflowId(h.config.TEMPORAL_TASK_QUEUE));
}

/** Runs a scenario unless `--only` names none of the workflow types it saves. */
const wanted = (types: string[]) => !only || types.some((t) => only.includes(t));

/**
 * No-shows: after acceptance, whoever has not come to the room within the grace time is missing.
 * The seeker alone (twice, as on a reconnect) → no-show of the recruiter; nobody → of both; both
 * arrive one after the other, meet and end it → completed.
 */
async function noShows(h: Harness) {
  const rec = await h.recruiter();
  const event = await createEvent(h, rec);
  await ok(transition(h, rec, event.id, 'go-live'), 'go-live');
  await createJob(h, rec, event.id);
  const matches = h.app.services.matches;
  const accepted = async () => {
    const s = await h.seeker();
    await join(h, s, event.slug);
    const m = await matchOf(h, s.user.id, { status: 'matched' });
    await matches.accept({ userId: s.user.id, matchId: m.id });
    await matches.accept({ userId: rec.user.id, matchId: m.id });
    return { s, m };
  };

  const alone = await accepted();
  await matches.enterRoom({ userId: alone.s.user.id, matchId: alone.m.id });
  await matches.enterRoom({ userId: alone.s.user.id, matchId: alone.m.id });
  await waitClosed(h, matchWorkflowId(alone.m.id));
  await save(h, 'matchWorkflow', 'accepted-seeker-alone-recruiter-no-show', matchWorkflowId(alone.m.id));

  const nobody = await accepted();
  await waitClosed(h, matchWorkflowId(nobody.m.id));
  await save(h, 'matchWorkflow', 'accepted-nobody-came-no-show', matchWorkflowId(nobody.m.id));

  const met = await accepted();
  await matches.enterRoom({ userId: rec.user.id, matchId: met.m.id });
  await matches.enterRoom({ userId: met.s.user.id, matchId: met.m.id });
  await matches.startInterviewClock({ userId: met.s.user.id, matchId: met.m.id });
  await matches.completeInterview({ userId: met.s.user.id, matchId: met.m.id });
  await waitClosed(h, matchWorkflowId(met.m.id));
  await save(h, 'matchWorkflow', 'accepted-both-arrived-met-completed', matchWorkflowId(met.m.id));
}

/** The settings each scenario's harness runs with (fast timers, long windows where a step must wait). */
const FAIR_ENV = {
  MATCHMAKER_INTERVAL_MS: '200',
  QUEUE_ENTRY_TTL_MS: '600000',
  MATCH_ACCEPT_WINDOW_MS: '600000',
  INTERVIEW_LENGTH_MS: '600000',
};
const FAIR_TYPES = [
  'queueEntryWorkflow',
  'liveEventWorkflow',
  'matchWorkflow',
  'matchmakerWorkflow',
  'changelogAnnouncementWorkflow',
];
const WEBHOOK_TYPES = ['webhookDeliveryWorkflow', 'webhookSubscriptionWorkflow'];

/** The scenarios in the order they run, each in a harness of its own, each run when one of its types is wanted. */
const SCENARIOS: Array<{
  types: string[];
  env: Record<string, string>;
  run: (h: Harness, rx: Receiver) => Promise<void>;
}> = [
  { types: FAIR_TYPES, env: { ...FAIR_ENV, INTERVIEW_REPORT_WINDOW_MS: '500', PUBLIC_CACHE_TTL_MS: '0' }, run: fair },
  { types: ['matchWorkflow'], env: { ...FAIR_ENV, INTERVIEW_REPORT_WINDOW_MS: '500' }, run: teammateAccepts },
  {
    types: ['matchmakerWorkflow'],
    env: { MATCHMAKER_INTERVAL_MS: '60000', QUEUE_ENTRY_TTL_MS: '600000', MATCH_ACCEPT_WINDOW_MS: '600000' },
    run: slotFreed,
  },
  {
    types: FAIR_TYPES,
    env: {
      MATCHMAKER_INTERVAL_MS: '200',
      QUEUE_ENTRY_TTL_MS: '5000',
      MATCH_ACCEPT_WINDOW_MS: '1500',
      INTERVIEW_LENGTH_MS: '1000',
      INTERVIEW_REPORT_WINDOW_MS: '500',
      // The interview length elapses with nobody in the room: no no-show here (noShows has them).
      MATCH_NO_SHOW_GRACE_MS: '0',
    },
    run: timers,
  },
  {
    types: ['matchWorkflow'],
    env: { ...FAIR_ENV, INTERVIEW_REPORT_WINDOW_MS: '0', MATCH_NO_SHOW_GRACE_MS: '1500' },
    run: noShows,
  },
  {
    types: WEBHOOK_TYPES,
    env: {
      WEBHOOK_RETRY_SCHEDULE_MS: '100,200,300,400,500',
      WEBHOOK_AUTO_PAUSE_FAILURES: '7',
      WEBHOOK_TIMEOUT_MS: '2000',
    },
    run: webhooks,
  },
  {
    types: WEBHOOK_TYPES,
    env: { WEBHOOK_RETRY_SCHEDULE_MS: '60000,60000,60000,60000,60000', WEBHOOK_TIMEOUT_MS: '2000' },
    run: cancelled,
  },
  {
    types: ['billingAccountWorkflow'],
    env: { BILLING_PERIOD_MONTH_MS: '1500', BILLING_PERIOD_YEAR_MS: '600000', BILLING_DUNNING_SCHEDULE_MS: '300,300' },
    run: billing,
  },
  {
    types: ['retentionWorkflow'],
    env: { RETENTION_INTERVAL_MS: '200', RETENTION_BATCH_SIZE: '10', RETENTION_MAX_BATCHES_PER_CALL: '1' },
    run: retention,
  },
];

/** The receiver the webhook scenarios deliver to: /ok answers 200, /flaky fails twice per event, the rest 500. */
async function startWebhookReceiver(): Promise<Receiver> {
  const rx = await startReceiver((r) => {
    if (r.url === '/ok') return { status: 200, body: 'ok' };
    // Two failures per event, then success.
    if (r.url === '/flaky')
      return rx.forEvent(r.json.id).length <= 2 ? { status: 503, body: 'busy' } : { status: 200, body: 'ok' };
    return { status: 500, body: 'receiver exploded' };
  });
  return rx;
}

/** The template database migrated and the workflows bundled, handed to the harness as dev/test.ts hands them to jest. */
async function prepareHarness(infra: Awaited<ReturnType<typeof startThrowawayInfrastructure>>, t0: number) {
  const adminUrl = infra.adminDatabaseUrl ?? infra.databaseUrl;
  await ensureDatabase(adminUrl, TEMPLATE_DB);
  const knex = createKnex(adminUrl.replace(/\/[^/?]+(\?|$)/, `/${TEMPLATE_DB}$1`), 1);
  await migrateLatest(knex);
  await knex.destroy();
  const bundle = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn: console.warn, error: console.error },
  });
  const bundlePath = path.join(infra.dir, 'workflow-bundle.js');
  fs.writeFileSync(bundlePath, bundle.code);
  // What dev/test.ts gives jest: the harness reads them.
  process.env.JOBFAIR_TEST_ADMIN_DB_URL = adminUrl;
  process.env.JOBFAIR_TEST_TEMPORAL_ADDRESS = infra.temporalAddress;
  process.env.JOBFAIR_TEST_WORKFLOW_BUNDLE = bundlePath;
  console.log(`[capture] PostgreSQL and Temporal up, workflows bundled in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

/** The outbox e-mail scenario, against an SMTP server of its own. */
async function outboxEmailWithSmtp() {
  const smtp = await startSmtp();
  try {
    await withHarness({ SMTP_URL: smtp.url }, outboxEmail);
  } finally {
    await smtp.close();
  }
}

async function main() {
  const t0 = Date.now();
  fs.mkdirSync(OUT, { recursive: true });
  const quiet = (l: string) => {
    if (process.env.CAPTURE_VERBOSE) console.log(`[capture] ${l}`);
  };
  const base = loadConfig({ ...process.env, NODE_ENV: 'test', TEMPORAL_ADDRESS: '' });
  const infra = await startThrowawayInfrastructure({ config: base, log: quiet, prefix: 'jobfair-capture' });
  const rx = await startWebhookReceiver();
  try {
    await prepareHarness(infra, t0);
    for (const s of SCENARIOS) if (wanted(s.types)) await withHarness(s.env, (h) => s.run(h, rx));
    if (wanted(['outboxEmailWorkflow'])) await outboxEmailWithSmtp();
  } finally {
    await rx.close();
    await infra.stop();
  }
  const written = results.filter((r) => r.written);
  console.log(
    `[capture] ${results.length} histories (${written.length} written, ` +
      `${results.length - written.length} kept), ` +
      `${(results.reduce((a, r) => a + r.bytes, 0) / 1024).toFixed(0)} KB, in ` +
      `${((Date.now() - t0) / 1000).toFixed(1)} s`,
  );
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
