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

  const current = () => currentBuildId(h.temporal, h.config.TEMPORAL_NAMESPACE, deploymentName);
  /** The current version is read, not assumed: under load the server may answer the old one for a moment. */
  const currentBecomes = (buildId: string) => eventually(async () => (await current()) === buildId, 30_000, 200);

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
    expect(await current()).toBeNull();
    await setCurrentVersion(h.temporal, h.config.TEMPORAL_NAMESPACE, { deploymentName, buildId: 'v1' });
    await currentBecomes('v1');
    await kickMatchmaker(v1.client, h.config, 'worker_start');
    await eventually(async () => (await completedBy()).includes('v1'), 30_000);

    await startVersion('v2');
    await setCurrentVersion(h.temporal, h.config.TEMPORAL_NAMESPACE, { deploymentName, buildId: 'v2' });
    // The deployment's routing is read back through the server's own cache: wait until it says v2.
    await currentBecomes('v2');
    const before = (await completedBy()).length;
    // The old worker keeps polling: routing, not its absence, keeps the tasks away from it. A task
    // already handed to v1 before the switch may still complete there; once v2 has completed one,
    // v1 completes none after it.
    await eventually(async () => {
      await kickMatchmaker(h.temporal, h.config, 'worker_start');
      return (await completedBy()).slice(before).includes('v2');
    }, 60_000);
    const since = (await completedBy()).slice(before);
    const fromFirstV2 = since.slice(since.indexOf('v2'));
    expect(new Set(fromFirstV2)).toEqual(new Set(['v2']));
    // One more kick after that: v2 only.
    const settled = (await completedBy()).length;
    await kickMatchmaker(h.temporal, h.config, 'worker_start');
    await eventually(async () => (await completedBy()).length > settled, 30_000);
    expect(new Set((await completedBy()).slice(settled))).toEqual(new Set(['v2']));

    // A version-1 worker restarting now (what promotes itself at start) leaves version 2 current.
    expect(
      await setCurrentVersion(
        h.temporal,
        h.config.TEMPORAL_NAMESPACE,
        { deploymentName, buildId: 'v1' },
        { onlyIfNewest: true },
      ),
    ).toBe(false);
    expect(await current()).toBe('v2');
  }, 180_000);
});
