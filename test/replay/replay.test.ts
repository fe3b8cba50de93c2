import fs from 'node:fs';
import path from 'node:path';
import { DefaultLogger, Runtime, Worker, type ReplayWorkerOptions } from '@temporalio/worker';
import * as workflows from '#workflows/index';
import { WORKFLOWS_PATH } from '#apps/worker/src/worker';
import { historyFromJSONObject, workflowTypeOf, type History } from './history-json';

/**
 * The determinism gate: every committed history (test/replay/histories, captured by
 * dev/capture-histories.ts from real runs) is replayed against the CURRENT workflow code. A
 * change that would break open executions (another order or kind of commands without `patched()`)
 * fails here. See test/replay/README.md and workflows/README.md ("Changing a workflow").
 */
const HISTORIES = path.join(__dirname, 'histories');

const histories = fs
  .readdirSync(HISTORIES)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((file) => {
    const history = historyFromJSONObject(JSON.parse(fs.readFileSync(path.join(HISTORIES, file), 'utf8')));
    return { file, history, workflowType: workflowTypeOf(history) };
  });

/** The workflow types the worker registers: every function the barrel exports. */
const workflowTypes = Object.entries(workflows)
  .filter(([, v]) => typeof v === 'function')
  .map(([name]) => name)
  .sort();

function replayOptions(): ReplayWorkerOptions {
  // dev/test.ts bundles the workflows once per run; jest alone bundles them here.
  const bundle = process.env.JOBFAIR_TEST_WORKFLOW_BUNDLE;
  return {
    replayName: 'replay-test',
    ...(bundle ? { workflowBundle: { codePath: bundle } } : { workflowsPath: WORKFLOWS_PATH }),
  };
}

async function replay(items: Array<{ file: string; history: History }>) {
  const outcomes: Array<{ file: string; error?: Error }> = [];
  for await (const r of Worker.runReplayHistories(
    replayOptions(),
    items.map(({ file, history }) => ({ workflowId: file, history })),
  )) {
    outcomes.push({ file: r.workflowId, error: r.error });
  }
  return outcomes;
}

describe('replaying the committed workflow histories against the current code', () => {
  beforeAll(() => {
    try {
      Runtime.install({ logger: new DefaultLogger('WARN') });
    } catch {
      /* already installed in this jest worker process */
    }
  });

  it('has at least one history for every workflow type in workflows/index.ts', () => {
    expect(workflowTypes.length).toBeGreaterThan(0);
    const covered = new Set(histories.map((h) => h.workflowType));
    const missing = workflowTypes.filter((t) => !covered.has(t));
    // A new workflow needs its histories: run `npx tsx dev/capture-histories.ts` after adding it there.
    expect(missing).toEqual([]);
  });

  it(
    'names each history file after its workflow type, and holds no history of a type the ' +
      'worker no longer registers',
    () => {
      for (const h of histories) {
        expect(`${h.file}: ${h.workflowType}`).toBe(`${h.file}: ${h.file.split('-')[0]}`);
        // A removed or renamed workflow type would strand its open executions: type names are forever.
        expect(workflowTypes).toContain(h.workflowType);
      }
    },
  );

  it('replays every history without a determinism violation or any other replay failure', async () => {
    const outcomes = await replay(histories);
    expect(outcomes.map((o) => o.file)).toEqual(histories.map((h) => h.file));
    const failures = outcomes.filter((o) => o.error).map((o) => `${o.file}: ${o.error!.name}: ${o.error!.message}`);
    expect(failures).toEqual([]);
  }, 180_000);

  it('is not vacuous: a history replayed against code that issues other commands fails', async () => {
    // The queue entry's history (search attributes, a local activity, an update…) replayed as the
    // changelog announcement (search attributes, then a normal activity) must be refused.
    const source = histories.find((h) => h.workflowType === 'queueEntryWorkflow')!;
    const swapped = structuredClone(source.history);
    swapped.events![0].workflowExecutionStartedEventAttributes!.workflowType!.name = 'changelogAnnouncementWorkflow';
    const [outcome] = await replay([{ file: `${source.file} as changelogAnnouncementWorkflow`, history: swapped }]);
    expect(outcome.error?.name).toBe('DeterminismViolationError');
  }, 180_000);
});
