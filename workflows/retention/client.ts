import type { Client } from '@temporalio/client';
import type { Config } from '../../lib/config';
import { JobfairEntity, JobfairStatus } from '../shared/contract';
import { RETENTION_WORKFLOW, retentionWorkflowId, type RetentionInput, type RetentionWorkflow } from './contract';

/** Start options of `retention:<task queue>`: a running one is kept (USE_EXISTING); a closed one is started again. */
export function retentionStartOptions(taskQueue: string) {
  return {
    workflowId: retentionWorkflowId(taskQueue),
    taskQueue,
    args: [{ taskQueue }] as [RetentionInput],
    workflowIdConflictPolicy: 'USE_EXISTING' as const,
    workflowIdReusePolicy: 'ALLOW_DUPLICATE' as const,
    staticSummary: `Retention: deletes rows past their retention (task queue ${taskQueue})`,
    typedSearchAttributes: [
      { key: JobfairEntity, value: 'retention' },
      { key: JobfairStatus, value: 'running' },
    ],
  };
}

/** Makes sure the task queue's retention workflow runs (idempotent: every worker calls it at start). */
export async function ensureRetention(client: Client, config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>): Promise<void> {
  await client.workflow.start<RetentionWorkflow>(RETENTION_WORKFLOW, retentionStartOptions(config.TEMPORAL_TASK_QUEUE));
}
