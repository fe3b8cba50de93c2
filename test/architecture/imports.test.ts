import { filesOutsideCapabilityFolders, findCycles, findViolations, readImportGraph } from '../../scripts/import-graph';

/**
 * The import rules of docs/ARCHITECTURE.md, checked on the real tree: a new import circle, a
 * workflow implementation imported outside the worker, or a layer reaching upwards fails here
 * (measure with `npm run graph`).
 */
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

  it('the rules catch what they promise (a planted cycle and a planted layering break)', () => {
    const planted = {
      ...graph,
      edges: [
        ...graph.edges,
        { from: 'workflows/queue/contract.ts', to: 'workflows/queue/queue-entry.ts', typeOnly: false, specifier: './queue-entry' },
        { from: 'apps/api/src/queue/queue-service.ts', to: 'workflows/queue/queue-entry.ts', typeOnly: false, specifier: '../../../../workflows/queue/queue-entry' },
        { from: 'lib/config.ts', to: 'db/repositories.ts', typeOnly: false, specifier: '../db/repositories' },
      ],
    };
    expect(findCycles(planted, { includeTypeOnly: true }).length).toBeGreaterThan(0);
    const rules = findViolations(planted).map((v) => v.rule);
    expect(rules).toEqual(
      expect.arrayContaining([
        'a contract imports only other contracts',
        'a workflow implementation is imported only inside workflows/ and by the worker',
        'nothing under lib/ imports a capability',
      ]),
    );
  });
});
