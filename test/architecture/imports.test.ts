import { CAPABILITIES, findCycles, findViolations, readImportGraph } from '../../scripts/import-graph';

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

  it('names each capability folder from the vocabulary, in every layer', () => {
    const allowed: Record<string, readonly string[]> = {
      'workflows/': [...CAPABILITIES, 'shared'],
      'activities/': CAPABILITIES,
      'db/': [...CAPABILITIES, 'migrations'],
      'apps/api/src/': [...CAPABILITIES, 'plugins', 'lib', 'platform', 'web'],
    };
    const unexpected = new Set<string>();
    for (const file of graph.files) {
      for (const [prefix, names] of Object.entries(allowed)) {
        if (!file.startsWith(prefix)) continue;
        const rest = file.slice(prefix.length).split('/');
        if (rest.length > 1 && !names.includes(rest[0])) unexpected.add(`${prefix}${rest[0]}/`);
      }
    }
    expect([...unexpected]).toEqual([]);
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
