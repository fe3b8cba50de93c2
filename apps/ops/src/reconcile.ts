import { createMatchesActivities } from '#activities/matches/matches-activities';
import { createQueueActivities } from '#activities/queue/queue-activities';
import type { QueueEntryRow } from '#db/queue/queue-repository';
import { liveEventStateQuery, liveEventWorkflowId } from '#workflows/events/contract';
import { matchStateQuery, matchWorkflowId, type MatchState } from '#workflows/matches/contract';
import { queueEntryStateQuery, queueEntryWorkflowId, type QueueEntryState } from '#workflows/queue/contract';
import { stateOf, type OpsContext } from './ops-context';
import type { Drift } from './reconcile-drift';
import { reconcileWebhookSubscriptions } from './reconcile-webhook-subscriptions';

type Opts = { fix: boolean; since: Date };

/**
 * Compares PostgreSQL projections with the owning workflows' state — open matches and queue
 * entries, and live/paused events (rows updated since `since`, or still open) — and with `fix`
 * re-projects a drifted row from the workflow with the workflow's own projection code.
 */
export async function reconcile(ctx: OpsContext, opts: { fix: boolean; since?: Date }): Promise<Drift[]> {
  const o = { fix: opts.fix, since: opts.since ?? new Date(0) };
  return [
    ...(await reconcileMatches(ctx, o)),
    ...(await reconcileQueueEntries(ctx, o)),
    ...(await reconcileLiveEvents(ctx)),
    ...(await reconcileWebhookSubscriptions(ctx, o)),
  ];
}

/** Open matches (and those updated since): status and acceptance times against the match workflow. */
async function reconcileMatches(ctx: OpsContext, opts: Opts): Promise<Drift[]> {
  const { knex, repos } = ctx.services.deps;
  const { since } = opts;
  const drift: Drift[] = [];
  const projectMatch = createMatchesActivities({
    matchesRepository: repos.matches,
    settingsRepository: repos.settings,
  }).projectMatch;
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
  return drift;
}

/** Waiting and matched queue entries (and those updated since): status and match against the entry's workflow. */
async function reconcileQueueEntries(ctx: OpsContext, opts: Opts): Promise<Drift[]> {
  const { knex, repos, config } = ctx.services.deps;
  const { since } = opts;
  const drift: Drift[] = [];
  const projectQueueEntry = createQueueActivities({
    knex,
    queueRepository: repos.queue,
    matchesRepository: repos.matches,
    matchAcceptWindowMs: config.MATCH_ACCEPT_WINDOW_MS,
  }).projectQueueEntry;

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
  return drift;
}

/** Live and paused events against their workflow: the workflow projects through the events capability's activity; report only. */
async function reconcileLiveEvents(ctx: OpsContext): Promise<Drift[]> {
  const { knex } = ctx.services.deps;
  const drift: Drift[] = [];
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
  return drift;
}
