import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';

/**
 * The rolling deploy's witness (decision 0265): every workflow that ran during the row, read from
 * its history. A workflow task failure is counted, and a non-determinism error (the new code could
 * not replay what the old one wrote, or the other way round) fails the run. Each workflow task
 * completion names the worker version that completed it, so the scan also says which workflows ran
 * the new code, which moved from the old version to the new one in flight (auto-upgrade), and
 * which went back to the old version after the new one had run them (what versioning rules out).
 */
export interface DeployScan {
  workflows: number;
  /** WorkflowTaskFailed events, any cause. */
  taskFailures: number;
  /** Of which non-determinism (cause or message). */
  nonDeterminism: number;
  /** Workflows whose history holds the changed workflow's patch marker. */
  newPath: number;
  /** Workflows completed by the old version first and then by the new one. */
  upgradedInFlight: number;
  /** Of which took the changed code's new path after the move (the patch marker in their history). */
  upgradedToNewPath: number;
  /** Workflows the old version completed a task of after the new one had: the mixed-fleet hazard. */
  backToOld: number;
  /** Failure messages seen (at most 5), for the log. */
  examples: string[];
}

const { EventType, WorkflowTaskFailedCause } = temporal.api.enums.v1;

export async function scanDeployHistories(
  client: Client,
  o: { sinceMs: number; patchId: string; oldBuildId: string; newBuildId: string },
): Promise<DeployScan> {
  const since = new Date(o.sinceMs).toISOString();
  const scan: DeployScan = {
    workflows: 0,
    taskFailures: 0,
    nonDeterminism: 0,
    newPath: 0,
    upgradedInFlight: 0,
    upgradedToNewPath: 0,
    backToOld: 0,
    examples: [],
  };
  const seen = new Set<string>();
  for (const query of [`ExecutionStatus = "Running"`, `CloseTime >= "${since}"`]) {
    for await (const wf of client.workflow.list({ query })) {
      const key = `${wf.workflowId}/${wf.runId}`;
      if (seen.has(key)) continue;
      seen.add(key);
      scan.workflows++;
      const history = await client.workflow.getHandle(wf.workflowId, wf.runId).fetchHistory();
      let sawOld = false;
      let sawNew = false;
      let newPath = false;
      let backToOld = false;
      for (const ev of history.events ?? []) {
        if (ev.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_FAILED) {
          scan.taskFailures++;
          const a = ev.workflowTaskFailedEventAttributes;
          const msg = a?.failure?.message ?? '';
          if (
            a?.cause === WorkflowTaskFailedCause.WORKFLOW_TASK_FAILED_CAUSE_NON_DETERMINISTIC_ERROR ||
            /nondetermin/i.test(msg)
          )
            scan.nonDeterminism++;
          if (scan.examples.length < 5) scan.examples.push(`${wf.type} ${wf.workflowId}: ${msg.slice(0, 300)}`);
        }
        if (ev.eventType === EventType.EVENT_TYPE_MARKER_RECORDED) {
          const details = JSON.stringify(ev.markerRecordedEventAttributes?.details ?? {});
          const payloads = Object.values(ev.markerRecordedEventAttributes?.details ?? {})
            .flatMap((p) => p.payloads ?? [])
            .map((p) => Buffer.from(p.data ?? []).toString('utf8'))
            .join(' ');
          if (payloads.includes(o.patchId) || details.includes(o.patchId)) newPath = true;
        }
        if (ev.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED) {
          const a = ev.workflowTaskCompletedEventAttributes;
          const buildId =
            a?.deploymentVersion?.buildId ||
            a?.workerDeploymentVersion?.split('.').pop() ||
            a?.workerVersion?.buildId ||
            '';
          if (buildId === o.newBuildId) sawNew = true;
          if (buildId === o.oldBuildId) {
            if (sawNew) backToOld = true;
            sawOld = true;
          }
        }
      }
      if (newPath) scan.newPath++;
      if (sawOld && sawNew) scan.upgradedInFlight++;
      if (sawOld && sawNew && newPath) scan.upgradedToNewPath++;
      if (backToOld) scan.backToOld++;
    }
  }
  return scan;
}
