// ESLint (flat config), run by `npm run lint` and by `npm test` before anything starts.
//
// Deliberately small: a handful of type-aware rules that catch real bugs (promises nobody
// awaits or handles, awaiting non-promises, promises where a void callback is expected,
// loose equality), plus the import boundary of the Temporal workflow sandbox. The
// recommended sets are not enabled wholesale: on a code base that never ran ESLint they
// report hundreds of style findings and bury the ones that matter.
const { builtinModules } = require('node:module');
const { defineConfig } = require('eslint/config');
const tseslint = require('typescript-eslint');

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');

/**
 * Never imported by workflow code, not even as a type: Node built-ins (bare and `node:`), the
 * database, HTTP, mail and validation libraries, and the Temporal packages that run outside
 * the sandbox. (The workflow bundle runs in a deterministic V8 isolate: none of these exist there.)
 */
const BANNED_IN_WORKFLOWS = [
  'node:.+',
  ...builtinModules.filter((m) => !m.startsWith('_')).map(escape),
  'pg(?:/.*)?',
  'pg-.+',
  'knex(?:/.*)?',
  'fastify.*',
  '@fastify/.+',
  '@temporalio/(?:client|worker|activity|testing)(?:/.*)?',
  'nodemailer(?:/.*)?',
  'zod(?:/.*)?',
].join('|');

/** The only packages workflow code may take values from. */
const SANDBOX_PACKAGES = '@temporalio/(?:workflow|common)';

/** A relative specifier whose segments contain no `.`/`..` after its leading ups. */
const NO_DOT_SEGMENTS = '(?!(?:.*/)?\\.\\.?(?:/|$))';

/**
 * Relative specifiers that stay inside workflows/ for a file `depth` folders below it
 * (workflows/index.ts: 0, workflows/queue/queue-entry.ts: 1), never naming a client.ts.
 */
function insideWorkflows(depth) {
  const ups = depth === 0 ? '\\./' : `(?:\\./|(?:\\.\\./){1,${depth}})`;
  return `${ups}${NO_DOT_SEGMENTS}(?:[^/]+/)*(?!client(?:\\.[jt]s)?$)[^/]+`;
}

/** Contracts (the capabilities' and `shared/contract.ts`, the search attributes): only other contracts. */
const CONTRACTS = `(?:\\./|\\.\\./(?!\\.\\.?/)[^/]+/)contract`;

function workflowImportRule(allowedValueImports, what) {
  return [
    'error',
    {
      patterns: [
        {
          regex: `^(?:${BANNED_IN_WORKFLOWS})$`,
          message:
            'Workflow code runs in the Temporal sandbox: no Node built-ins, pg, knex, fastify, nodemailer, zod or Temporal client/worker/activity packages (not even as types). Do the work in an activity.',
        },
        {
          // Everything else that is neither banned above nor allowed: types only.
          regex: `^(?!(?:${BANNED_IN_WORKFLOWS})$)(?!(?:${SANDBOX_PACKAGES}|${allowedValueImports})$)`,
          allowTypeImports: true,
          message: `${what} Use \`import type\` for anything else (activities, lib, client.ts helpers).`,
        },
      ],
    },
  ];
}

const WORKFLOW_SANDBOX_GLOBALS = [
  'process',
  'Buffer',
  'require',
  'module',
  '__dirname',
  '__filename',
  'setImmediate',
  'clearImmediate',
  'WeakRef',
  'FinalizationRegistry',
].map((name) => ({
  name,
  message: `\`${name}\` does not exist (or is not deterministic) in the Temporal workflow sandbox.`,
}));

module.exports = defineConfig([
  {
    ignores: ['**/node_modules/', '**/dist/', '**/.data/', 'test-artifacts/', 'apps/api/src/web/static/**/*.js'],
  },
  {
    linterOptions: { reportUnusedDisableDirectives: 'error' },
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        projectService: true,
        tsconfigRootDir: __dirname,
      },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    rules: {
      // A promise nobody awaits: its rejection is unhandled (the process dies) and its work
      // races whatever comes next. `await` it, or `void` it with a comment saying why.
      // Only real promises (checkThenables off): FastifyReply and knex query builders are
      // thenables, and `reply.code(404)` / `if (x) q.where(…)` are statements by design. The
      // price: a knex query written without `await` never runs, and nothing here catches it.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/await-thenable': 'error',
      // An async function where a void callback is expected (setInterval, EventEmitter.on,
      // forEach): its rejection is unhandled. Fastify's own handler and hook types accept
      // promises, so this is quiet there.
      '@typescript-eslint/no-misused-promises': 'error',
      eqeqeq: ['error', 'always', { null: 'ignore' }],
      // One import statement per module (a type-only one beside it is fine).
      'no-duplicate-imports': ['error', { allowSeparateTypeImports: true }],
    },
  },
  {
    // Knex query builders are thenables, and the builder callbacks knex takes
    // (`.andWhere((q) => q.whereNull(…))`) are typed as returning void: every such arrow would be
    // reported. In the repositories only, function arguments are not checked for that.
    files: ['db/**/*.ts'],
    rules: {
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { arguments: false } }],
    },
  },
  {
    // Workflow code, bundled into the worker's V8 sandbox. client.ts files are Node-side
    // Temporal client helpers (used by the API), never bundled.
    files: ['workflows/**/*.ts'],
    ignores: ['workflows/*/client.ts'],
    rules: {
      'no-restricted-globals': ['error', ...WORKFLOW_SANDBOX_GLOBALS],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'ImportExpression',
          message: 'No dynamic import() in workflow code: the bundle is built once, statically.',
        },
      ],
    },
  },
  // One block per folder depth: how far `../` may climb and still stay inside workflows/.
  ...[0, 1, 2, 3].map((depth) => ({
    files: [`workflows/${'*/'.repeat(depth)}*.ts`],
    ignores: ['workflows/*/client.ts'],
    rules: {
      'no-restricted-imports': workflowImportRule(
        insideWorkflows(depth),
        'Workflow code takes values only from @temporalio/workflow, @temporalio/common and other workflow files (not client.ts).',
      ),
    },
  })),
  {
    // client.ts helpers run in the API and activities: they may use contracts (incl. ../shared/contract,
    // the search attributes) and other clients, never a workflow implementation (that would pull it
    // out of the worker).
    files: ['workflows/*/client.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?:\\./|\\.\\./(?!\\.\\.)[^/]+/)(?!(?:contract|client)$)[^/]+$',
              message:
                "A client.ts imports contracts (its own, other capabilities', ../shared/contract) and other clients only: start workflows by their contract type name, never by importing the implementation.",
            },
          ],
        },
      ],
    },
  },
  {
    // Contracts are imported by workflows, activities and the API alike: they stay leaves.
    files: ['workflows/*/contract.ts'],
    rules: {
      'no-restricted-imports': workflowImportRule(
        CONTRACTS,
        'A contract takes values only from @temporalio/workflow, @temporalio/common, other contract.ts files (../shared/contract for the search attributes).',
      ),
    },
  },
]);
