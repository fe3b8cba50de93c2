import type { MatchWithJob } from '#db/matches/matches-repository';
import type { QueueEntryRow } from '#db/queue/queue-repository';
import { queueEntryStateQuery, queueEntryWorkflowId, type QueueEntryState } from '#workflows/queue/contract';
import { UnknownSubjectError, stateOf, when, type OpsContext } from './ops-context';
import { whyMatch } from './why-match';

export { UnknownSubjectError, when, type OpsContext } from './ops-context';
export { whyMatch } from './why-match';
export { describeDrift, type Drift } from './reconcile-drift';
export { reconcile } from './reconcile';

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

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
