// The demo worker's workflowsPath (apps/demo/src/demo-simulator.ts): the simulator only. The service's
// barrel (workflows/index.ts) does not export it, so production workers never register it.
export { demoSimulatorWorkflow } from './demo-simulator';
