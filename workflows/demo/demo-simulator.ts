import {
  condition,
  continueAsNew,
  proxyActivities,
  setCurrentDetails,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import {
  demoSimulationTotalsQuery,
  stopDemoSimulationSignal,
  type DemoSimulatorInput,
  type DemoSimulatorResult,
} from './contract';
import type { createDemoActivities } from '../../activities/demo/demo-activities';

const { runDemoSimulationStep } = proxyActivities<ReturnType<typeof createDemoActivities>>({
  startToCloseTimeout: '1 minute',
  // The API may still be starting when the first step runs: retry quickly, then keep going.
  retry: { initialInterval: '1 second', maximumInterval: '10 seconds' },
});

/** Steps per run before continuing as new (each step is a handful of history events). */
const STEPS_PER_RUN = 500;

/**
 * The demo fair simulator: every tick one step (an activity) lets a simulated seeker's agent join
 * a queue through the public API and lets simulated recruiters and seekers answer their matches
 * through the match workflow's own Updates — so a newcomer sees positions move, matches made,
 * accepted and completed, and webhooks fire. Until the `stopDemoSimulation` signal.
 */
export async function demoSimulatorWorkflow(input: DemoSimulatorInput): Promise<DemoSimulatorResult> {
  const totals = { ticks: 0, joined: 0, accepted: 0, completed: 0, ...input.totals };
  let lastSaid: string[] = [];
  let stop = false;
  setHandler(stopDemoSimulationSignal, () => {
    stop = true;
  });
  setHandler(demoSimulationTotalsQuery, () => ({ ...totals, lastSaid }));

  for (let step = 0; !stop; step++) {
    const r = await runDemoSimulationStep({
      tick: totals.ticks,
      recruiterDelayMs: input.recruiterDelayMs,
      interviewMs: input.interviewMs,
    });
    totals.ticks++;
    totals.joined += r.joined;
    totals.accepted += r.accepted;
    totals.completed += r.completed;
    if (r.said.length) lastSaid = r.said;
    setCurrentDetails(
      [
        `Simulating the demo fair: step ${totals.ticks}, every ${Math.round(input.tickMs / 1000)} s.`,
        `So far ${totals.joined} seekers joined, ${totals.accepted} acceptances, ${totals.completed} interviews completed.`,
        lastSaid.length ? `Last step: ${lastSaid.join('; ')}.` : 'Last step: nothing to do.',
      ].join('\n'),
    );
    await condition(() => stop, input.tickMs, { summary: 'next simulation step' });
    if (!stop && (step + 1 >= STEPS_PER_RUN || workflowInfo().continueAsNewSuggested)) {
      await continueAsNew<typeof demoSimulatorWorkflow>({ ...input, totals });
    }
  }
  setCurrentDetails(`Stopped after ${totals.ticks} steps.`);
  return totals;
}
