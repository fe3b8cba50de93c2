import type { Client } from '@temporalio/client';
import type { Config } from '../../lib/config';
import {
  isUrgentKick,
  kickSignal,
  matchmakerInput,
  matchmakerStartMetadata,
  matchmakerWorkflowId,
  MATCHMAKER_WORKFLOW,
  type KickReason,
  type KickSignalInput,
  type MatchmakerWorkflow,
} from './contract';

type KickConfig = Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'MATCHMAKER_INTERVAL_MS'>;

/** Per client and matchmaker: the kick on its way, and the one queued behind it (decision 0190). */
const kicks = new WeakMap<
  Client,
  Map<string, { busy: Promise<void> | null; next: Promise<void> | null; nextReason: KickReason | null }>
>();

/**
 * Wakes the task queue's matchmaker, starting it if it is not running (signal-with-start: the
 * API's first join, the worker at start, an activity after a slot frees — whoever comes first).
 *
 * Kicks from one process are coalesced: while one is on its way, every further call waits for a
 * single kick sent after it lands, so 20 joins at once cost the matchmaker about two signals (and
 * workflow tasks), not 20. Each caller's promise settles only after a kick sent after its call
 * has reached the matchmaker, so a round still follows whatever the caller wrote before kicking.
 * The queued kick carries an urgent reason if any caller sharing it had one (a freed slot skips
 * the matchmaker's batch window, decision 0215), else the first caller's.
 */
export function kickMatchmaker(client: Client, config: KickConfig, reason: KickReason): Promise<void> {
  let byId = kicks.get(client);
  if (!byId) kicks.set(client, (byId = new Map()));
  const id = matchmakerWorkflowId(config.TEMPORAL_TASK_QUEUE);
  let state = byId.get(id);
  if (!state) byId.set(id, (state = { busy: null, next: null, nextReason: null }));
  const s = state;
  if (!s.busy) {
    const sent = sendKick(client, config, reason).finally(() => {
      s.busy = null;
    });
    s.busy = sent;
    return sent;
  }
  if (!s.nextReason || (isUrgentKick(reason) && !isUrgentKick(s.nextReason))) s.nextReason = reason;
  s.next ??= s.busy
    .catch(() => undefined)
    .then(() => {
      const queued = s.nextReason ?? reason;
      s.next = null;
      s.nextReason = null;
      return kickMatchmaker(client, config, queued);
    });
  return s.next;
}

async function sendKick(client: Client, config: KickConfig, reason: KickReason): Promise<void> {
  await client.workflow.signalWithStart<MatchmakerWorkflow, [KickSignalInput]>(MATCHMAKER_WORKFLOW, {
    workflowId: matchmakerWorkflowId(config.TEMPORAL_TASK_QUEUE),
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    args: [matchmakerInput(config)],
    signal: kickSignal,
    signalArgs: [{ reason }],
    ...matchmakerStartMetadata(config.TEMPORAL_TASK_QUEUE, config.MATCHMAKER_INTERVAL_MS),
  });
}
