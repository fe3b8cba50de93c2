import { randomBytes } from 'node:crypto';
import { temporal } from '@temporalio/proto';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { testEnv } from '../helpers/env';
import { startWorker, type StartedWorker } from '#apps/worker/src/worker';
import { createKnex } from '#db/knex';
import { currentBuildId, setCurrentVersion } from '#lib/worker-versioning';
import { kickMatchmaker } from '#workflows/matchmaking/client';
import { matchmakerWorkflowId } from '#workflows/matchmaking/contract';
import type { Config } from '#lib/config';

/**
 * Worker Versioning (decision 0265): a worker with WORKER_BUILD_ID polls as a version of the Worker
 * Deployment; making a new version current moves a running long-lived workflow (the matchmaker) to
 * it on its next task, and the old version completes no task after that.
 */
const { EventType } = temporal.api.enums.v1;

describe('worker versioning: a rolling deploy moves running workflows to the new version', () => {
  let h: Harness;
  const deploymentName = `test-${randomBytes(4).toString('hex')}`;
  const workers: StartedWorker[] = [];
  const knexes: ReturnType<typeof createKnex>[] = [];

  const startVersion = async (buildId: string) => {
    const config: Config = { ...h.config, WORKER_BUILD_ID: buildId, WORKER_DEPLOYMENT_NAME: deploymentName };
    const knex = createKnex(h.dbUrl, 4);
    knexes.push(knex);
    const w = await startWorker({
      config,
      knex,
      address: testEnv().temporalAddress,
      workflowBundle: { codePath: testEnv().workflowBundle },
      shutdownGraceTime: '2 seconds',
    });
    workers.push(w);
    return w;
  };

  /** The build ids that completed the matchmaker's workflow tasks, in order. */
  const completedBy = async (): Promise<string[]> => {
    const history = await h.temporal.workflow
      .getHandle(matchmakerWorkflowId(h.config.TEMPORAL_TASK_QUEUE))
      .fetchHistory();
    return (history.events ?? [])
      .filter((e) => e.eventType === EventType.EVENT_TYPE_WORKFLOW_TASK_COMPLETED)
      .map((e) => e.workflowTaskCompletedEventAttributes?.deploymentVersion?.buildId ?? '');
  };

  beforeAll(async () => {
    h = await createHarness({ worker: false });
  });
  afterAll(async () => {
    for (const w of workers) await w.shutdown().catch(() => undefined);
    for (const k of knexes) await k.destroy();
    await h?.temporal.workflow
      .getHandle(matchmakerWorkflowId(h.config.TEMPORAL_TASK_QUEUE))
      .terminate('test over')
      .catch(() => undefined);
    await h?.close();
  });

  it('version 1 runs the matchmaker; once version 2 is current, its next tasks run on version 2 only', async () => {
    const v1 = await startVersion('v1');
    expect(await currentBuildId(h.temporal, h.config.TEMPORAL_NAMESPACE, deploymentName)).toBeNull();
    await setCurrentVersion(h.temporal, h.config.TEMPORAL_NAMESPACE, { deploymentName, buildId: 'v1' });
    expect(await currentBuildId(h.temporal, h.config.TEMPORAL_NAMESPACE, deploymentName)).toBe('v1');
    await kickMatchmaker(v1.client, h.config, 'worker_start');
    await eventually(async () => (await completedBy()).includes('v1'), 30_000);

    await startVersion('v2');
    await setCurrentVersion(h.temporal, h.config.TEMPORAL_NAMESPACE, { deploymentName, buildId: 'v2' });
    const before = (await completedBy()).length;
    // The old worker keeps polling: routing, not its absence, keeps the tasks away from it.
    await kickMatchmaker(h.temporal, h.config, 'worker_start');
    await eventually(async () => (await completedBy()).length > before, 30_000);
    const after = (await completedBy()).slice(before);
    expect(after.length).toBeGreaterThan(0);
    expect(new Set(after)).toEqual(new Set(['v2']));

    // A version-1 worker restarting now (what promotes itself at start) leaves version 2 current.
    expect(
      await setCurrentVersion(
        h.temporal,
        h.config.TEMPORAL_NAMESPACE,
        { deploymentName, buildId: 'v1' },
        { onlyIfNewest: true },
      ),
    ).toBe(false);
    expect(await currentBuildId(h.temporal, h.config.TEMPORAL_NAMESPACE, deploymentName)).toBe('v2');
  }, 120_000);
});
