import { defineQuery, defineSignal } from '@temporalio/workflow';
/**
 * Contract of the demo capability: the demo fair simulator of `npm start` (development only). It
 * runs on its own task queue with its own workflow barrel (`workflows/demo/index.ts`), so the
 * production worker never registers it. See docs/decisions/0151-living-demo.md.
 */
export const DEMO_SIMULATOR_WORKFLOW = 'demoSimulatorWorkflow';
export const demoSimulatorWorkflowId = (taskQueue: string): string => `demo-simulator:${taskQueue}`;
/** The demo worker's task queue, beside the service's. */
export const demoTaskQueue = (taskQueue: string): string => `${taskQueue}-demo`;

export interface DemoSimulatorInput {
  /** One simulation step every tickMs. */
  tickMs: number;
  /** A simulated recruiter accepts a match once it is this old (the newcomer sees `matched` first). */
  recruiterDelayMs: number;
  /** A simulated interview ends (completed) this long after both accepted, freeing the slot. */
  interviewMs: number;
  /** Carried over continue-as-new. */
  totals?: DemoSimulationTotals;
}
export type DemoSimulatorResult = DemoSimulationTotals;

export interface DemoSimulationTotals {
  ticks: number;
  joined: number;
  accepted: number;
  completed: number;
}

export interface DemoSimulationStepInput {
  tick: number;
  recruiterDelayMs: number;
  interviewMs: number;
}
/** What one step did, in words with names (no e-mail addresses: this goes into workflow history). */
export interface DemoSimulationStepResult {
  joined: number;
  accepted: number;
  completed: number;
  said: string[];
}

export const stopDemoSimulationSignal = defineSignal('stopDemoSimulation');
export const demoSimulationTotalsQuery = defineQuery<DemoSimulationTotals & { lastSaid: string[] }>('totals');
export type DemoSimulatorWorkflow = (input: DemoSimulatorInput) => Promise<DemoSimulatorResult>;
