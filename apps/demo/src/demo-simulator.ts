import path from 'node:path';
import type { Knex } from 'knex';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { Client, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { appSecret, type Config } from '#lib/config';
import { connectClosable } from '#lib/temporal-connection';
import { createRepositories } from '#db/repositories';
import { createDemoActivities, httpAgentJoin, type DemoAgentJoin } from '#activities/demo/demo-activities';
import { createDemoTokenStore } from '#activities/demo/demo-tokens';
import { DEMO_COMPANIES, DEMO_SIMULATED_SEEKERS } from '#activities/demo/fair';
import {
  DEMO_SIMULATOR_WORKFLOW,
  demoSimulatorWorkflowId,
  demoTaskQueue,
  stopDemoSimulationSignal,
  type DemoSimulatorWorkflow,
} from '#workflows/demo/contract';

export const DEMO_WORKFLOWS_PATH = path.join(__dirname, '..', '..', '..', 'workflows', 'demo', 'index.ts');

/**
 * The demo fair simulator of `npm start` (docs/decisions/0151-living-demo.md): a worker on its own
 * task queue (`<TEMPORAL_TASK_QUEUE>-demo`, workflows from workflows/demo/index.ts) and the
 * `demo-simulator:<queue>` workflow, visible in the Temporal UI. The service's own worker never
 * registers it. `stop()` signals the workflow to finish and stops the worker.
 */
export async function startDemoSimulator(opts: {
  config: Config;
  knex: Knex;
  address: string;
  /** Default: the public API at `config.publicBaseUrl`. */
  agentJoin?: DemoAgentJoin;
  tickMs?: number;
  recruiterDelayMs?: number;
  interviewMs?: number;
  /** Default: DEMO_RECRUITER_KEEPS_OWN_MATCHES. */
  demoRecruiterKeepsOwnMatches?: boolean;
  workflowBundle?: WorkerOptions['workflowBundle'];
}): Promise<{ workflowId: string; client: Client; stop: () => Promise<void> }> {
  const { config } = opts;
  const taskQueue = demoTaskQueue(config.TEMPORAL_TASK_QUEUE);
  const workflowId = demoSimulatorWorkflowId(config.TEMPORAL_TASK_QUEUE);
  const connection = await NativeConnection.connect({ address: opts.address });
  const clientConnection = await connectClosable({ address: opts.address });
  const client = new Client({ connection: clientConnection.connection, namespace: config.TEMPORAL_NAMESPACE });
  const worker = await Worker.create({
    connection,
    namespace: config.TEMPORAL_NAMESPACE,
    taskQueue,
    ...(opts.workflowBundle ? { workflowBundle: opts.workflowBundle } : { workflowsPath: DEMO_WORKFLOWS_PATH }),
    activities: createDemoActivities({
      repos: createRepositories(opts.knex),
      client,
      tokens: createDemoTokenStore(config.DATA_DIR, appSecret(config)),
      agentJoin: opts.agentJoin ?? httpAgentJoin(config.publicBaseUrl),
      demoRecruiterKeepsOwnMatches:
        opts.demoRecruiterKeepsOwnMatches ?? config.DEMO_RECRUITER_KEEPS_OWN_MATCHES === 'on',
    }),
    shutdownGraceTime: '5 seconds',
    // A step waiting on a match's Update must not hold Ctrl-C: its next run redoes it.
    shutdownForceTime: '10 seconds',
  });
  const run = worker.run();
  // Handled from the start: a worker failing before stop() must not be an unhandled rejection.
  run.catch((err: Error) => console.error(`[demo] simulator worker stopped: ${err.message}`));
  const tickMs = opts.tickMs ?? config.DEMO_SIMULATION_TICK_MS;
  try {
    await client.workflow.start<DemoSimulatorWorkflow>(DEMO_SIMULATOR_WORKFLOW, {
      workflowId,
      taskQueue,
      // A run left open by an earlier `npm start` (killed without Ctrl-C) carries on.
      workflowIdConflictPolicy: 'USE_EXISTING',
      staticSummary: 'Demo fair simulator: simulated seekers join, simulated recruiters accept (npm start)',
      staticDetails:
        `Acts every ${tickMs} ms for ${DEMO_SIMULATED_SEEKERS.length} simulated seekers (${DEMO_SIMULATED_SEEKERS.map((s) => s.name).join(', ')}) ` +
        `and the simulated recruiters ` +
        `${DEMO_COMPANIES.map((c) => `${c.simulatedRecruiter.name} (${c.team})`).join(', ')}` +
        `${config.DEMO_RECRUITER_KEEPS_OWN_MATCHES === 'on' ? `, who leave the matches offered to ${DEMO_COMPANIES[0].owner.name} to her` : ''}; Ada ` +
        `Lovelace's agent joins once. DEMO_SIMULATION=off stops it.`,
      args: [
        { tickMs, recruiterDelayMs: opts.recruiterDelayMs ?? 2 * tickMs, interviewMs: opts.interviewMs ?? 20 * tickMs },
      ],
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  return {
    workflowId,
    client,
    stop: async () => {
      await stopDemoSimulation(client, config).catch(() => undefined);
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await run.catch(() => undefined);
      await connection.close();
      await clientConnection.close();
    },
  };
}

/** Stops a simulator left running (DEMO_SIMULATION=off, or at Ctrl-C). No run: nothing to do. */
export async function stopDemoSimulation(client: Client, config: Pick<Config, 'TEMPORAL_TASK_QUEUE'>): Promise<void> {
  try {
    await client.workflow
      .getHandle(demoSimulatorWorkflowId(config.TEMPORAL_TASK_QUEUE))
      .signal(stopDemoSimulationSignal);
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}
