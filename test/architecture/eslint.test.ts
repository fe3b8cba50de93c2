import path from 'node:path';
import { ESLint, type Linter } from 'eslint';

/**
 * The lint rules that keep workflow code deterministic and promises handled (eslint.config.js,
 * run by `npm run lint` and first thing in `npm test`) catch what they promise: planted
 * files, linted in memory with the real config and type information, never written to disk.
 */
const ROOT = path.resolve(__dirname, '../..');

/** Planted files exist only in memory (another process may be compiling the tree meanwhile). */
const PLANTED = ['workflows/queue/planted.ts', 'workflows/planted/contract.ts', 'lib/planted.ts'];

// The config is passed as an object: ESLint loads a config file with import(), which jest's
// CommonJS sandbox does not support. The project service only knows files on disk; planted
// ones are typed in a default project with tsconfig.json's options.
const config = require(path.join(ROOT, 'eslint.config.js')) as Linter.Config[];
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfigFile: true,
  overrideConfig: [
    ...config,
    {
      files: ['**/*.ts'],
      languageOptions: {
        parserOptions: { projectService: { allowDefaultProject: PLANTED, defaultProject: 'tsconfig.json' } },
      },
    },
  ],
});

async function lint(code: string, filePath: string): Promise<Array<{ rule: string | null; line: number }>> {
  // TypeScript's project service (created on the first call, keeping the setTimeout it finds)
  // schedules housekeeping timers of a few seconds; unref'd, they do not hold the jest worker open.
  const realSetTimeout = globalThis.setTimeout;
  globalThis.setTimeout = ((...args: Parameters<typeof realSetTimeout>) =>
    realSetTimeout(...args).unref()) as typeof realSetTimeout;
  try {
    const [result] = await eslint.lintText(code, { filePath: path.join(ROOT, filePath) });
    return result.messages.map((m) => ({ rule: m.ruleId, line: m.line }));
  } finally {
    globalThis.setTimeout = realSetTimeout;
  }
}

describe('eslint rules', () => {
  jest.setTimeout(120_000);

  it('workflow code: no Node built-ins, no value imports from outside workflows/, no floating promise', async () => {
    const messages = await lint(
      [
        "import fs from 'node:fs';",
        "import { createQueueActivities } from '../../activities/queue/queue-activities';",
        "import type { Pool } from 'pg';",
        "import { sleep } from '@temporalio/workflow';",
        "import { queueEntryWorkflowId } from './contract';",
        'export async function plantedWorkflow(p: Pool): Promise<string> {',
        '  sleep(1000);',
        '  return queueEntryWorkflowId(String(fs) + String(createQueueActivities) + String(p));',
        '}',
        '',
      ].join('\n'),
      'workflows/queue/planted.ts',
    );
    expect(messages).toEqual(
      expect.arrayContaining([
        { rule: 'no-restricted-imports', line: 1 },
        { rule: 'no-restricted-imports', line: 2 },
        { rule: 'no-restricted-imports', line: 3 },
        { rule: '@typescript-eslint/no-floating-promises', line: 7 },
      ]),
    );
    expect(messages).toHaveLength(4);
  });

  it('workflow code may import types from anywhere but client.ts helpers only as types', async () => {
    const ok = await lint(
      [
        "import type { createQueueActivities } from '../../activities/queue/queue-activities';",
        "import { proxyActivities, sleep } from '@temporalio/workflow';",
        "import { JobfairEntity } from '../shared/contract';",
        "import type { tellEntriesEventEnded } from './client';",
        'const acts = proxyActivities<ReturnType<typeof createQueueActivities>>({ startToCloseTimeout: 1000 });',
        'export async function plantedWorkflow(f: typeof tellEntriesEventEnded | null): Promise<unknown> {',
        '  await sleep(1000);',
        '  return [acts, JobfairEntity, f];',
        '}',
        '',
      ].join('\n'),
      'workflows/queue/planted.ts',
    );
    expect(ok).toEqual([]);

    const fromClient = await lint(
      "import { tellEntriesEventEnded } from './client';\nexport const x = tellEntriesEventEnded;\n",
      'workflows/queue/planted.ts',
    );
    expect(fromClient).toEqual([{ rule: 'no-restricted-imports', line: 1 }]);
  });

  it('a contract takes values only from Temporal and other contracts', async () => {
    const messages = await lint(
      [
        "import { defineSignal } from '@temporalio/workflow';",
        "import { JobfairEntity } from '../shared/contract';",
        "import { matchClosedSignal } from '../queue/contract';",
        "import { createProjection } from '../shared/projection';",
        'export const planted = [defineSignal, JobfairEntity, matchClosedSignal, createProjection];',
        '',
      ].join('\n'),
      'workflows/planted/contract.ts',
    );
    expect(messages).toEqual([{ rule: 'no-restricted-imports', line: 4 }]);
  });

  it('client.ts helpers and code outside workflows/ are not bound by the sandbox rule', async () => {
    const messages = await lint(
      "import fs from 'node:fs';\nimport { Client } from '@temporalio/client';\nexport const x = [fs, Client];\n",
      'workflows/queue/client.ts',
    );
    expect(messages).toEqual([]);
  });

  it(
    'a client.ts never imports a workflow implementation, only contracts, clients and the ' + 'search attributes',
    async () => {
      const bad = await lint(
        "import type { queueEntryWorkflow } from './queue-entry';\nimport { createProjection } " +
          "from '../shared/projection';\nexport type W = typeof queueEntryWorkflow;\nexport const p " +
          '= createProjection;\n',
        'workflows/queue/client.ts',
      );
      expect(bad.map((m) => m.rule)).toEqual(['no-restricted-imports', 'no-restricted-imports']);
      const ok = await lint(
        "import { QUEUE_ENTRY_WORKFLOW } from './contract';\nimport { kickMatchmaker } from " +
          "'../matchmaking/client';\nimport { JobfairEntity } from '../shared/contract';\nimport { " +
          "loadConfig } from '../../lib/config';\nexport const x = [QUEUE_ENTRY_WORKFLOW, " +
          'kickMatchmaker, JobfairEntity, loadConfig];\n',
        'workflows/queue/client.ts',
      );
      expect(ok).toEqual([]);
    },
  );

  it('a floating promise is an error outside workflows too', async () => {
    const messages = await lint(
      'async function f(): Promise<void> {}\nexport function g(): void {\n  f();\n  void f();\n}\n',
      'lib/planted.ts',
    );
    expect(messages).toEqual([{ rule: '@typescript-eslint/no-floating-promises', line: 3 }]);
  });
});
