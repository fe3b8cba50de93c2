import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Services } from '../../api/src/services';
import { matchStateQuery, matchWorkflowId, type MatchState } from '#workflows/matches/contract';
import { queueEntryStateQuery, queueEntryWorkflowId, type QueueEntryState } from '#workflows/queue/contract';
import { liveEventStateQuery, liveEventWorkflowId } from '#workflows/events/contract';
import {
  deleteSubscriptionUpdate,
  subscriptionStateQuery,
  webhookSubscriptionWorkflowId,
  type WebhookSubscriptionState,
} from '#workflows/webhooks/contract';
import { createWebhookSubscriptionActivities } from '#activities/webhooks/subscription-activities';
import type { WebhookSubscriptionRow } from '#db/webhooks/webhooks-repository';
import { createMatchesActivities } from '#activities/matches/matches-activities';
import { createQueueActivities } from '#activities/queue/queue-activities';
import type { MatchWithJob } from '#db/matches/matches-repository';
import type { QueueEntryRow } from '#db/queue/queue-repository';

/**
 * The operator's commands behind `npm run ops` (apps/ops/src/ops.ts), as functions over the API's
 * composition root and a Temporal client, so tests call them as the CLI does. Answers are words:
 * names (never e-mail addresses), times in the operator's local time zone with "in 3 min".
 */
export interface OpsContext {
  services: Services;
  temporal: Client;
  now?: () => number;
  /** IANA zone for times (default: the process's, i.e. TZ). */
  timeZone?: string;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function when(ms: number | null | undefined, nowMs: number, timeZone?: string): string {
  if (ms === null || ms === undefined) return 'never';
  const at = new Date(ms).toLocaleString('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    day: '2-digit',
    month: 'short',
    timeZoneName: 'short',
  });
  const d = Math.round((ms - nowMs) / 1000);
  const span = (s: number) =>
    s < 90 ? `${s} s` : s < 5400 ? `${Math.round(s / 60)} min` : `${(s / 3600).toFixed(1)} h`;
  return `${at} (${Math.abs(d) < 3 ? 'now' : d > 0 ? `in ${span(d)}` : `${span(-d)} ago`})`;
}

/** Workflow state: the query while it runs (a worker answers), its result once it has closed. */
async function stateOf<T>(
  temporal: Client,
  workflowId: string,
  query: Parameters<ReturnType<Client['workflow']['getHandle']>['query']>[0],
): Promise<{ state: T; running: boolean } | null> {
  const handle = temporal.workflow.getHandle(workflowId);
  try {
    const d = await handle.describe();
    if (d.status.name === 'RUNNING') return { state: (await handle.query(query)) as T, running: true };
    if (d.status.name === 'COMPLETED') return { state: (await handle.result()) as T, running: false };
    return null;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}

export async function whyMatch(ctx: OpsContext, matchId: string, o: { mustExist?: boolean } = {}): Promise<string[]> {
  const now = (ctx.now ?? Date.now)();
  const t = (ms: number | null) => when(ms, now, ctx.timeZone);
  const { repos } = ctx.services.deps;
  const row = await repos.matches.findById(matchId);
  const wf = await stateOf<MatchState>(ctx.temporal, matchWorkflowId(matchId), matchStateQuery);
  if (!row && !wf) {
    const message = `No match, queue entry or user ${matchId}: neither PostgreSQL nor Temporal knows it.`;
    if (o.mustExist) throw new UnknownSubjectError(message);
    return [message];
  }
  const s = wf?.state;
  const seekerName =
    (await repos.accounts.findUserById(s?.seekerUserId ?? row!.seeker_user_id))?.display_name ?? 'the seeker';
  const job = row?.job_title ?? 'a job';
  const lines = [
    `Match ${matchId}: ${seekerName} for "${job}" (event ${s?.liveEventSlug ?? row?.live_event_slug ?? '?'}).`,
  ];
  if (!s) {
    // The match row is written with the offer, before its workflow starts (decision 0120).
    if (row && (row.status === 'matched' || row.status === 'accepted')) {
      lines.push(
        `PostgreSQL says ${row.status}, but its workflow has not started yet: the matchmaker ` +
          `starts it right after the offer (an accept or a decline starts it too). If this lasts ` +
          `more than a minute, the matchmaker is stalled: look at matchmaker:<queue> in the Temporal ` +
          `UI.`,
      );
    } else {
      lines.push(`Temporal no longer has its workflow (closed and past retention); PostgreSQL says ${row!.status}.`);
    }
    return lines;
  }
  lines.push(`Status: ${s.status} (workflow ${wf!.running ? 'running' : 'closed'}); made ${t(s.createdAtMs)}.`);
  switch (s.status) {
    case 'matched': {
      const seeker = s.seekerAcceptedAtMs
        ? `the seeker accepted ${t(s.seekerAcceptedAtMs)}`
        : "waiting for the seeker's acceptance";
      const recruiter = s.recruiterAcceptedAtMs
        ? `the recruiter accepted ${t(s.recruiterAcceptedAtMs)}`
        : "waiting for the recruiter's acceptance";
      lines.push(`Waiting: ${seeker}; ${recruiter}.`);
      lines.push(
        `Timer: the acceptance window expires ${t(s.expiresAtMs)}; then the match expires and the ` +
          `seeker's entry waits again.`,
      );
      break;
    }
    case 'accepted':
      lines.push(
        `Both accepted ${t(s.acceptedAtMs)}. Timer: the interview ends ${t(s.interviewEndsAtMs)} ` +
          `unless a party ends it first (signal interviewCompleted).`,
      );
      if ((s.arriveByMs ?? null) !== null && (s.interviewStartedAtMs ?? null) === null)
        lines.push(
          `Arrivals: seeker ${s.seekerInRoomAtMs ? `in the room ${t(s.seekerInRoomAtMs)}` : 'not yet'}, recruiter ` +
            `${s.recruiterInRoomAtMs ? `in the room ${t(s.recruiterInRoomAtMs)}` : 'not yet'}; whoever has not come by ` +
            `${t(s.arriveByMs!)} is a no-show.`,
        );
      break;
    case 'expired':
      lines.push(
        `Expired ${t(s.expiredAtMs)}: ` +
          `${!s.seekerAcceptedAtMs && !s.recruiterAcceptedAtMs ? 'neither side accepted' : !s.seekerAcceptedAtMs ? 'the seeker did not accept' : 'the recruiter did not accept'} ` +
          `within the window. Nothing waits.`,
      );
      break;
    case 'declined':
      lines.push(
        `Declined ${t(s.declinedAtMs)} by the ${s.declinedByRole ?? 'a party'}${s.declineReason ? ` ("${s.declineReason}")` : ''}. ` +
          `Nothing waits.`,
      );
      break;
    case 'completed':
      lines.push(`Interview completed ${t(s.completedAtMs)}. Nothing waits.`);
      break;
    case 'no_show':
      lines.push(
        `No-show ${t(s.noShowAtMs ?? null)}: the ${s.noShowMissing === 'both' ? 'seeker and the recruiter' : (s.noShowMissing ?? 'other side')} ` +
          `did not come to the room by ${t(s.arriveByMs ?? null)}. Not an interview; nothing waits.`,
      );
      break;
  }
  if (row && row.status !== s.status)
    lines.push(`Drift: PostgreSQL says ${row.status}; run \`npm run ops -- reconcile --fix\`.`);
  return lines;
}

export async function whyQueueEntry(ctx: OpsContext, entry: QueueEntryRow): Promise<string[]> {
  const now = (ctx.now ?? Date.now)();
  const t = (ms: number | null) => when(ms, now, ctx.timeZone);
  const { repos } = ctx.services.deps;
  const user = await repos.accounts.findUserById(entry.user_id);
  const wf = await stateOf<QueueEntryState>(ctx.temporal, queueEntryWorkflowId(entry.user_id), queueEntryStateQuery);
  const s = wf && wf.state.queueId === entry.id ? wf.state : null;
  const status = s?.status ?? entry.status;
  const lines = [
    `Queue entry ${entry.id} of ${user?.display_name ?? 'a seeker'} for ` +
      `${entry.live_event_slug ? `event ${entry.live_event_slug}` : 'any event'}: ${status}; ` +
      `joined ${t(entry.entered_at.getTime())}.`,
  ];
  if (status === 'waiting') {
    const position = await repos.queue.positionOf(entry);
    lines.push(
      `Position ${position ?? '?'}; the entry expires ${t(s?.expiresAtMs ?? entry.expires_at?.getTime() ?? null)}.`,
    );
    lines.push(...(await eligibility(ctx, entry)));
  } else if (status === 'matched') {
    lines.push(
      `Matched (match ${s?.matchId ?? entry.match_id}): \`npm run ops -- why ` +
        `${s?.matchId ?? entry.match_id}\` says what that match waits for.`,
    );
  } else {
    lines.push(`Ended (${s?.endReason ?? entry.end_reason ?? status}). Nothing waits.`);
  }
  if (s && s.status !== entry.status)
    lines.push(`Drift: PostgreSQL says ${entry.status}; run \`npm run ops -- reconcile --fix\`.`);
  return lines;
}

/**
 * Why a waiting entry has no match yet: the wait explanation the queue status gives the seeker
 * (apps/api/src/matchmaking/wait-service.ts, the matchmaker's own rules), with its blocker named.
 */
async function eligibility(ctx: OpsContext, entry: QueueEntryRow): Promise<string[]> {
  const now = (ctx.now ?? Date.now)();
  const t = (ms: number | null) => when(ms, now, ctx.timeZone);
  const { explanation: x, estimate } = await ctx.services.matchmaking.wait.explain(entry);
  const range =
    estimate.minSeconds !== null || estimate.maxSeconds !== null
      ? ` (range ${estimate.minSeconds ?? '?'}–${estimate.maxSeconds ?? '?'} s)`
      : '';
  return [
    `Blocked by: ${x.blocker ?? 'nothing — an offer is due in the next matching round'}.`,
    `Why: ${x.reason}`,
    `Jobs: ${x.openJobs} open, ${x.excludedJobs} excluded (declined, interviewed for or tried), ` +
      `${x.eligibleJobs} eligible, ${x.passingJobs} passing the floor now` +
      `${x.best ? ` (best: "${x.best.title}" at ${x.best.eventSlug}, score ${x.best.score})` : ''}.`,
    `Floor: bracket ${x.bracket + 1} of ${x.brackets}` +
      `${x.floor ? ` (score ≥ ${x.floor.min_score}${x.floor.essential_required ? ', an essential skill required' : ''})` : ''}` +
      `; relaxes ${x.nextRelaxAtMs === null ? 'no further' : t(x.nextRelaxAtMs)}.`,
    `Estimate: ${estimate.seconds === null ? 'none' : `${estimate.seconds} s`}${range} — ${estimate.reason}.`,
  ];
}

/** `why` was given something no store knows: the CLI prints the message and exits non-zero. */
export class UnknownSubjectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownSubjectError';
  }
}

/** Workflow ids as the Temporal UI shows them: `queue-entry:<userId>`, `match:<matchId>`. */
const WORKFLOW_ID_RE = /^(queue-entry|match):([0-9a-f-]{36})$/i;

/**
 * `why <match-id|queue-entry-id|user-id|e-mail|queue-entry:<userId>|match:<matchId>>`; something
 * nobody knows → UnknownSubjectError (the CLI exits 1).
 */
export async function why(ctx: OpsContext, input: string): Promise<string[]> {
  const { repos } = ctx.services.deps;
  const ref = input.trim();
  const ofUser = async (user: { id: string; display_name: string; role: string }) => {
    const out = [`${user.display_name} (${user.role}).`];
    const entry = await repos.queue.findLatestForUser(user.id);
    if (entry) out.push(...(await whyQueueEntry(ctx, entry)));
    else if (user.role === 'seeker') out.push('Has never joined a queue.');
    const open = (await repos.matches.listForSeeker(user.id, 5)).filter(
      (m: MatchWithJob) => m.status === 'matched' || m.status === 'accepted',
    );
    for (const m of open) out.push(...(await whyMatch(ctx, m.id)));
    return out;
  };
  if (ref.includes('@')) {
    const user = await repos.accounts.findUserByEmail(ref.toLowerCase());
    if (!user) throw new UnknownSubjectError(`No user with the e-mail address ${ref}.`);
    return ofUser(user);
  }
  const workflowId = WORKFLOW_ID_RE.exec(ref);
  if (workflowId && UUID_RE.test(workflowId[2])) {
    const kind = workflowId[1].toLowerCase();
    const id = workflowId[2].toLowerCase();
    if (kind === 'match') return whyMatch(ctx, id, { mustExist: true });
    // queue-entry:<userId>: the seeker's latest entry (the workflow id names the user, not the entry).
    const user = await repos.accounts.findUserById(id);
    if (!user) throw new UnknownSubjectError(`No user ${id} (from the workflow id ${ref}).`);
    const entry = await repos.queue.findLatestForUser(user.id);
    if (!entry) throw new UnknownSubjectError(`${user.display_name} has no queue entry (workflow id ${ref}).`);
    return whyQueueEntry(ctx, entry);
  }
  if (!UUID_RE.test(ref))
    throw new UnknownSubjectError(
      `Not a match id, queue entry id, user id, e-mail address or workflow id ` +
        `(queue-entry:<userId>, match:<matchId>): ${ref}`,
    );
  const id = ref.toLowerCase();
  const entry = await repos.queue.findById(id);
  if (entry) return whyQueueEntry(ctx, entry);
  const user = await repos.accounts.findUserById(id);
  if (user) return ofUser(user);
  return whyMatch(ctx, id, { mustExist: true });
}

export interface Drift {
  kind: 'match' | 'queue_entry' | 'live_event' | 'webhook_subscription';
  id: string;
  field: string;
  projection: unknown;
  workflow: unknown;
  fixed?: boolean;
}

/** One drift in words (the CLI's line). */
export function describeDrift(d: Drift): string {
  if (d.field === 'workflow')
    return (
      `${d.kind} ${d.id}: PostgreSQL says ${JSON.stringify(d.projection)}, but no workflow runs ` +
      `for it${d.fixed ? ' — started from the row' : ''}`
    );
  if (d.field === 'row')
    return `${d.kind} ${d.id}: its workflow runs, but PostgreSQL has no row${d.fixed ? ' — workflow ended (delete)' : ''}`;
  return (
    `${d.kind} ${d.id}: ${d.field} is ${JSON.stringify(d.projection)} in PostgreSQL, ` +
    `${JSON.stringify(d.workflow)} in the workflow${d.fixed ? ' — re-projected' : ''}`
  );
}

/**
 * Compares PostgreSQL projections with the owning workflows' state — open matches and queue
 * entries, and live/paused events (rows updated since `since`, or still open) — and with `fix`
 * re-projects a drifted row from the workflow with the workflow's own projection code.
 */
export async function reconcile(ctx: OpsContext, opts: { fix: boolean; since?: Date }): Promise<Drift[]> {
  const { knex, repos, config } = ctx.services.deps;
  const since = opts.since ?? new Date(0);
  const drift: Drift[] = [];
  const projectMatch = createMatchesActivities({
    matchesRepository: repos.matches,
    settingsRepository: repos.settings,
  }).projectMatch;
  const projectQueueEntry = createQueueActivities({
    knex,
    queueRepository: repos.queue,
    matchesRepository: repos.matches,
    matchAcceptWindowMs: config.MATCH_ACCEPT_WINDOW_MS,
  }).projectQueueEntry;

  const matchIds: string[] = (
    await knex('matches')
      .whereIn('status', ['matched', 'accepted'])
      .orWhere('updated_at', '>=', since)
      .select('id')
      .limit(10_000)
  ).map((r: { id: string }) => r.id);
  for (const id of matchIds) {
    const row = await repos.matches.findById(id);
    const wf = await stateOf<MatchState>(ctx.temporal, matchWorkflowId(id), matchStateQuery);
    if (!row || !wf) continue;
    const s = wf.state;
    const fields: Array<[string, unknown, unknown]> = [
      ['status', row.status, s.status],
      ['seeker_accepted_at', row.seeker_accepted_at?.getTime() ?? null, s.seekerAcceptedAtMs],
      ['recruiter_accepted_at', row.recruiter_accepted_at?.getTime() ?? null, s.recruiterAcceptedAtMs],
      ['expires_at', row.expires_at?.getTime() ?? null, s.expiresAtMs],
    ];
    const found = fields
      .filter(([, a, b]) => a !== b)
      .map(([field, projection, workflow]) => ({ kind: 'match' as const, id, field, projection, workflow }));
    if (found.length && opts.fix) {
      await projectMatch({
        state: s,
        input: {
          matchScore: row.match_score,
          scoreBreakdown: row.score_breakdown,
          scoreVersion: row.score_version,
          seekerViaAgent: row.seeker_via_agent,
          seekerAgentIdentity: row.seeker_agent_identity,
        } as never,
      });
      found.forEach((d) => Object.assign(d, { fixed: true }));
    }
    drift.push(...found);
  }

  const entries: QueueEntryRow[] = await knex('queue_entries')
    .whereIn('status', ['waiting', 'matched'])
    .orWhere('updated_at', '>=', since)
    .limit(10_000);
  for (const row of entries) {
    const wf = await stateOf<QueueEntryState>(ctx.temporal, queueEntryWorkflowId(row.user_id), queueEntryStateQuery);
    if (!wf || wf.state.queueId !== row.id) continue;
    const s = wf.state;
    const fields: Array<[string, unknown, unknown]> = [
      ['status', row.status, s.status],
      ['match_id', row.match_id, s.matchId],
    ];
    const found = fields
      .filter(([, a, b]) => a !== b)
      .map(([field, projection, workflow]) => ({
        kind: 'queue_entry' as const,
        id: row.id,
        field,
        projection,
        workflow,
      }));
    if (found.length && opts.fix) {
      await projectQueueEntry({ state: s, endedAtMs: row.ended_at?.getTime() ?? (wf.running ? null : Date.now()) });
      found.forEach((d) => Object.assign(d, { fixed: true }));
    }
    drift.push(...found);
  }

  // Live events: the workflow projects through the events capability's activity; report only.
  const events: Array<{ id: string; status: string }> = await knex('live_events')
    .whereIn('status', ['live', 'paused'])
    .select('id', 'status');
  for (const e of events) {
    const wf = await stateOf<{ status: string }>(ctx.temporal, liveEventWorkflowId(e.id), liveEventStateQuery);
    if (wf && wf.state.status !== e.status)
      drift.push({ kind: 'live_event', id: e.id, field: 'status', projection: e.status, workflow: wf.state.status });
    if (!wf)
      drift.push({ kind: 'live_event', id: e.id, field: 'workflow', projection: e.status, workflow: 'none running' });
  }
  drift.push(...(await reconcileWebhookSubscriptions(ctx, { fix: opts.fix, since })));
  return drift;
}

/**
 * Webhook subscriptions: the row (PostgreSQL) against its actor `webhook-subscription:<whk>`, which
 * owns status, failure counter and pause. Three kinds of drift:
 * - state: status / consecutive_failures / paused_at differ → `fix` re-projects them with the
 *   actor's own projection activity (a row marked deleted while its actor runs is re-projected too:
 *   only the actor's `delete` deletes);
 * - missing workflow: a live row whose actor has no open run (terminated, or lost) → `fix` starts
 *   it from the row, as the API does before messaging it; an actor that ended by `delete` instead
 *   re-projects the row as deleted;
 * - workflow without a row: a running actor (of this task queue) whose row is gone → `fix` sends
 *   it `delete`, which cancels its waiting deliveries and ends it.
 */
async function reconcileWebhookSubscriptions(ctx: OpsContext, opts: { fix: boolean; since: Date }): Promise<Drift[]> {
  const { knex, repos, config } = ctx.services.deps;
  const drift: Drift[] = [];
  const project = createWebhookSubscriptionActivities({
    knex,
    webhooksRepository: repos.webhooks,
    accountsRepository: repos.accounts,
    outbox: repos.outbox,
    client: ctx.temporal,
    publicBaseUrl: config.publicBaseUrl,
  }).projectWebhookSubscription;
  const reproject = async (s: WebhookSubscriptionState) =>
    project({
      webhookId: s.webhookId,
      status: s.status,
      consecutiveFailures: s.consecutiveFailures,
      pausedAtMs: s.pausedAtMs,
    });
  const of = (id: string, field: string, projection: unknown, workflow: unknown): Drift => ({
    kind: 'webhook_subscription',
    id,
    field,
    projection,
    workflow,
  });

  const rows: WebhookSubscriptionRow[] = await knex('webhook_subscriptions')
    .whereNot('status', 'deleted')
    .orWhere('updated_at', '>=', opts.since)
    .limit(10_000);
  const checked = new Set<string>();
  const check = async (row: WebhookSubscriptionRow) => {
    checked.add(row.id);
    const wf = await stateOf<WebhookSubscriptionState>(
      ctx.temporal,
      webhookSubscriptionWorkflowId(row.id),
      subscriptionStateQuery,
    );
    if (!wf?.running) {
      if (row.status === 'deleted') return;
      if (wf?.state.status === 'deleted') {
        const d = of(row.id, 'status', row.status, 'deleted');
        if (opts.fix) await reproject(wf.state).then(() => (d.fixed = true));
        drift.push(d);
        return;
      }
      const d = of(row.id, 'workflow', row.status, 'none running');
      if (opts.fix) await ctx.services.webhooks.ensureActor(row.id).then(() => (d.fixed = true));
      drift.push(d);
      return;
    }
    const s = wf.state;
    const found = (
      [
        ['status', row.status, s.status],
        ['consecutive_failures', row.consecutive_failures, s.consecutiveFailures],
        ['paused_at', row.paused_at?.getTime() ?? null, s.pausedAtMs],
      ] as Array<[string, unknown, unknown]>
    )
      .filter(([, a, b]) => a !== b)
      .map(([field, a, b]) => of(row.id, field, a, b));
    if (found.length && opts.fix) {
      await reproject(s);
      found.forEach((d) => (d.fixed = true));
    }
    drift.push(...found);
  };
  for (const row of rows) await check(row);

  // Running actors of this task queue that no row above accounts for: an older deleted row, or none.
  const query = `JobfairEntity="webhook_subscription" AND ExecutionStatus="Running" AND TaskQueue="${config.TEMPORAL_TASK_QUEUE}"`;
  for await (const w of ctx.temporal.workflow.list({ query })) {
    const id = w.workflowId.slice('webhook-subscription:'.length);
    if (checked.has(id)) continue;
    const row = await repos.webhooks.findSubscriptionById(id);
    if (row) {
      await check(row);
      continue;
    }
    const d = of(id, 'row', 'none', 'running');
    if (opts.fix) {
      await ctx.temporal.workflow.getHandle(w.workflowId).executeUpdate(deleteSubscriptionUpdate);
      d.fixed = true;
    }
    drift.push(d);
  }
  return drift;
}
