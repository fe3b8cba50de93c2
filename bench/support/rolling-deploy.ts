import { setTimeout as sleep } from 'node:timers/promises';
import { exitOf, type RunningProcess } from '#test/helpers/processes';

/**
 * A rolling deploy as Kubernetes' rolling update does it (decision 0265), on whatever processes
 * the stack runs — one worker and one API on the chaos stack, a list of each on a cluster:
 *
 * 1. start the new version's workers, one per old worker, and wait until each polls;
 * 2. make the new version current (Worker Versioning): from the next workflow task on, every
 *    workflow runs on the new workers; the old ones go idle;
 * 3. stop the old workers (SIGTERM: in-flight activities finish, 30 s grace), one at a time;
 * 4. replace the APIs one at a time: start the successor, wait until it is ready, route traffic
 *    to it, then stop the old one (SIGTERM: in-flight requests finish).
 */
export interface RollingDeployPlan {
  oldWorkers: RunningProcess[];
  /** Starts worker `i` of the new version; resolves once it polls. */
  startWorker: (i: number) => Promise<RunningProcess>;
  /** Makes the new version the current one. */
  promote: () => Promise<void>;
  /** Each API in turn: starts its successor, waits until ready and routes traffic to it; resolves with the old process. */
  replaceApis: Array<() => Promise<{ old: RunningProcess; next: RunningProcess }>>;
  log?: (l: string) => void;
  /** How long a stopped process may drain before SIGKILL (Kubernetes' terminationGracePeriodSeconds). */
  graceMs?: number;
}

export interface RollingDeployResult {
  workers: RunningProcess[];
  apis: RunningProcess[];
  /** Milliseconds from the deploy's start to each step's end. */
  steps: { workersUp: number; promoted: number; oldWorkersStopped: number; apisReplaced: number };
  /** Old processes that had to be killed after the grace period. */
  killedAfterGrace: number;
}

async function stopGracefully(p: RunningProcess, graceMs: number): Promise<boolean> {
  if (p.exitCode !== null || p.signalCode !== null) return false;
  p.kill('SIGTERM');
  const exited = await Promise.race([exitOf(p).then(() => true), sleep(graceMs).then(() => false)]);
  if (exited) return false;
  p.kill('SIGKILL');
  await exitOf(p);
  return true;
}

export async function rollingDeploy(plan: RollingDeployPlan): Promise<RollingDeployResult> {
  const t0 = Date.now();
  const log = plan.log ?? (() => undefined);
  const graceMs = plan.graceMs ?? 45_000;
  let killedAfterGrace = 0;
  const workers: RunningProcess[] = [];
  for (let i = 0; i < plan.oldWorkers.length; i++) workers.push(await plan.startWorker(i));
  const workersUp = Date.now() - t0;
  log(`deploy: ${workers.length} new worker(s) polling at +${workersUp} ms`);
  await plan.promote();
  const promoted = Date.now() - t0;
  log(`deploy: new version current at +${promoted} ms`);
  for (const w of plan.oldWorkers) if (await stopGracefully(w, graceMs)) killedAfterGrace++;
  const oldWorkersStopped = Date.now() - t0;
  log(`deploy: ${plan.oldWorkers.length} old worker(s) stopped at +${oldWorkersStopped} ms`);
  const apis: RunningProcess[] = [];
  for (const replace of plan.replaceApis) {
    const { old, next } = await replace();
    apis.push(next);
    if (await stopGracefully(old, graceMs)) killedAfterGrace++;
  }
  const apisReplaced = Date.now() - t0;
  log(`deploy: ${apis.length} API(s) replaced at +${apisReplaced} ms`);
  return { workers, apis, steps: { workersUp, promoted, oldWorkersStopped, apisReplaced }, killedAfterGrace };
}
