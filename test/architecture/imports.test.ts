import fs from 'node:fs';
import path from 'node:path';
import { filesOutsideCapabilityFolders, findCycles, findViolations, readImportGraph } from '#dev/import-graph';

/**
 * The import rules of docs/ARCHITECTURE.md, checked on the real tree: a new import circle, a
 * workflow implementation imported outside the worker, or a layer reaching upwards fails here
 * (measure with `npm run graph`).
 */
const ROOT = path.resolve(__dirname, '..', '..');

describe('import graph', () => {
  const graph = readImportGraph();

  it('every relative import resolves to a file', () => {
    expect(graph.unresolved).toEqual([]);
  });

  it('has no import cycle, not even through type-only imports', () => {
    expect(findCycles(graph, { includeTypeOnly: true })).toEqual([]);
  });

  it('keeps the layering rules', () => {
    expect(findViolations(graph)).toEqual([]);
  });

  it('puts capability code in folders named from the vocabulary, in every layer', () => {
    expect(filesOutsideCapabilityFolders(graph)).toEqual([]);
  });

  it('defines every signal, update and query in a contract', () => {
    const elsewhere = graph.files.filter(
      (f) =>
        f.startsWith('workflows/') &&
        !f.endsWith('/contract.ts') &&
        /\bdefine(Signal|Update|Query)\s*[<(]/.test(fs.readFileSync(path.join(ROOT, f), 'utf8')),
    );
    expect(elsewhere).toEqual([]);
  });

  it('the rules catch what they promise (a planted cycle and a planted layering break)', () => {
    const planted = {
      ...graph,
      edges: [
        ...graph.edges,
        {
          from: 'workflows/queue/contract.ts',
          to: 'workflows/queue/queue-entry.ts',
          typeOnly: false,
          specifier: './queue-entry',
        },
        {
          from: 'apps/api/src/queue/queue-service.ts',
          to: 'workflows/queue/queue-entry.ts',
          typeOnly: false,
          specifier: '../../../../workflows/queue/queue-entry',
        },
        { from: 'lib/config.ts', to: 'db/repositories.ts', typeOnly: false, specifier: '../db/repositories' },
        {
          from: 'workflows/queue/client.ts',
          to: 'workflows/queue/queue-entry.ts',
          typeOnly: true,
          specifier: './queue-entry',
        },
        {
          from: 'apps/api/src/events/console-jobs-pages.ts',
          to: 'apps/api/src/events/jobs-routes.ts',
          typeOnly: false,
          specifier: './jobs-routes',
        },
        {
          from: 'apps/api/src/queue/queue-service.ts',
          to: 'apps/api/src/matches/video-provider.ts',
          typeOnly: false,
          specifier: '../matches/video-provider',
        },
        { from: 'apps/worker/src/main.ts', to: 'dev/ports.ts', typeOnly: false, specifier: '../../../dev/ports' },
        // Allowed by every layering rule, but written as a relative path across top-level folders.
        { from: 'bench/run.ts', to: 'lib/config.ts', typeOnly: false, specifier: '../lib/config' },
        {
          from: 'domain/billing/provider.ts',
          to: 'domain/webhooks/signing.ts',
          typeOnly: false,
          specifier: '../webhooks/signing',
        },
      ],
    };
    expect(findCycles(planted, { includeTypeOnly: true }).length).toBeGreaterThan(0);
    const violations = findViolations(planted);
    expect(violations).toContainEqual(
      expect.objectContaining({ from: 'workflows/queue/client.ts', to: 'workflows/queue/queue-entry.ts' }),
    );
    expect(violations).toContainEqual({
      rule: 'outside workflows/, another top-level folder is imported by its # name, never a relative path',
      from: 'bench/run.ts',
      to: 'lib/config.ts',
    });
    const rules = violations.map((v) => v.rule);
    expect(rules).toEqual(
      expect.arrayContaining([
        'a contract imports only other contracts',
        'a workflow implementation is imported only inside workflows/ and by the worker',
        'nothing under lib/ imports a capability',
        'a page never imports a route module (schemas come from *-schemas.ts)',
        "a capability imports another capability's *-service.ts or *-schemas.ts only (a page also its pages)",
        'production code imports nothing from dev/, test/ or bench/',
        'domain/<cap>/ imports only lib/ and its own capability',
        'outside workflows/, another top-level folder is imported by its # name, never a relative path',
      ]),
    );
  });
});
