import type { Client } from '@temporalio/client';
import type { Config } from '../../lib/config';
import { kickSignal, matchmakerInput, matchmakerStartMetadata, matchmakerWorkflowId, MATCHMAKER_WORKFLOW, type KickReason, type KickSignalInput, type MatchmakerWorkflow } from './contract';

/**
 * Wakes the task queue's matchmaker, starting it if it is not running (signal-with-start: the
 * API's first join, the worker at start, an activity after a slot frees — whoever comes first).
 */
export async function kickMatchmaker(client: Client, config: Pick<Config, 'TEMPORAL_TASK_QUEUE' | 'MATCHMAKER_INTERVAL_MS'>, reason: KickReason): Promise<void> {
  await client.workflow.signalWithStart<MatchmakerWorkflow, [KickSignalInput]>(MATCHMAKER_WORKFLOW, {
    workflowId: matchmakerWorkflowId(config.TEMPORAL_TASK_QUEUE),
    taskQueue: config.TEMPORAL_TASK_QUEUE,
    args: [matchmakerInput(config)],
    signal: kickSignal,
    signalArgs: [{ reason }],
    ...matchmakerStartMetadata(config.TEMPORAL_TASK_QUEUE, config.MATCHMAKER_INTERVAL_MS),
  });
}
