import { StartContext, type StartStep } from './start/context';
import { createSupervisor } from './start/supervisor';
import { chooseMetricsPorts, readConfiguration, stopOnSignals } from './start/configuration';
import { migrate, seedDemo, startServers } from './start/infrastructure';
import { startLiveKit, startTraces, startTurn } from './start/optional-servers';
import { awaitApiReady, awaitWorkerPolling, spawnWorkerAndApi } from './start/processes';
import { openDemo, startSimulator } from './start/demo';
import { printBanner } from './start/banner';
import { runSteps } from './steps';

/**
 * `npm start`: the whole service on one machine — Temporal dev server (or TEMPORAL_ADDRESS),
 * embedded PostgreSQL (or DATABASE_URL), migrations, demo data, the worker and the API as
 * separate processes. Ctrl-C stops everything it started. `npm start -- --turn` also runs coturn on
 * loopback and points the interview room at it (try ROOM_ICE_TRANSPORT_POLICY=relay to force it).
 * `npm start -- --livekit` runs a LiveKit server on loopback (built once with Go) and makes it the
 * room engine (VIDEO_PROVIDER=livekit), its webhooks to this API. `npm start -- --traces` runs the
 * trace store (Jaeger, in memory, built once with Go) and turns tracing on in both processes.
 *
 * The start-up is the steps below, in order (dev/start/); once a stop has begun, no further step runs.
 */
const START_STEPS: readonly StartStep[] = [
  { name: 'configuration', run: readConfiguration },
  { name: 'metrics ports', run: chooseMetricsPorts },
  { name: 'stop on signals', run: stopOnSignals },
  { name: 'Temporal and PostgreSQL', run: startServers },
  { name: 'migrations', run: migrate },
  { name: 'demo seeding', run: seedDemo },
  { name: 'TURN (--turn)', run: startTurn },
  { name: 'LiveKit (--livekit)', run: startLiveKit },
  { name: 'trace store (--traces)', run: startTraces },
  { name: 'worker and API', run: spawnWorkerAndApi },
  { name: 'API ready', run: awaitApiReady },
  { name: 'worker polls', run: awaitWorkerPolling },
  { name: 'demo events live', run: openDemo },
  { name: 'demo simulator', run: startSimulator },
  { name: 'banner', run: printBanner },
];

async function main() {
  const supervisor = createSupervisor();
  await runSteps(START_STEPS, new StartContext(supervisor), () => supervisor.stopping);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
