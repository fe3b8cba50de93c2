import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The project's import graph, read with the TypeScript parser: every relative import, re-export,
 * `require()` and dynamic `import()` of the source tree, resolved to a file. It measures what
 * docs/ARCHITECTURE.md promises (no cycles, the layering rules, one folder name per capability)
 * and `test/architecture/imports.test.ts` fails when a rule breaks.
 *
 *   npm run graph            the figures and every violation
 *   npm run graph -- --json  the same as JSON
 */
const ROOT = path.resolve(__dirname, '..');
const SOURCE_DIRS = ['apps', 'workflows', 'activities', 'db', 'domain', 'lib', 'dev', 'test', 'bench'];

/** What runs in production (the image builds these): none of it may import dev/, test/ or bench/. */
const PRODUCTION = ['apps', 'workflows', 'activities', 'db', 'domain', 'lib'];

/** The capability vocabulary (docs/ARCHITECTURE.md): one name per capability in every layer (`billing` is reserved for the billing issue). */
export const CAPABILITIES = [
  'accounts',
  'events',
  'queue',
  'matchmaking',
  'matches',
  'webhooks',
  'changelog',
  'notifications',
  'billing',
  'demo',
  'retention',
  'room',
] as const;

export interface ImportEdge {
  from: string;
  to: string;
  /** `import type` / `export type`, or every named specifier type-only: erased at compile time. */
  typeOnly: boolean;
  specifier: string;
}

function listSources(dir: string, out: string[] = []): string[] {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) listSources(full, out);
    else if (/\.(ts|js)$/.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** package.json "imports" (`#lib/*` → `./lib/*.ts`): the short names for the tree's top-level folders. */
function subpathImports(root: string): Array<[prefix: string, target: string]> {
  const { imports = {} } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    imports?: Record<string, string>;
  };
  return Object.entries(imports).map(([name, target]) => [
    name.replace(/\*$/, ''),
    path.join(root, target.replace(/\*\.ts$/, '')),
  ]);
}

function resolveImport(root: string, fromFile: string, specifier: string): string | null {
  if (specifier.startsWith('#')) {
    const hit = subpathImports(root).find(([prefix]) => specifier.startsWith(prefix));
    return hit ? resolveRelative(fromFile, path.join(hit[1], specifier.slice(hit[0].length))) : null;
  }
  return resolveRelative(fromFile, specifier);
}

function resolveRelative(fromFile: string, specifier: string): string | null {
  const base = path.resolve(path.dirname(fromFile), specifier);
  for (const candidate of [
    base,
    `${base}.ts`,
    `${base}.js`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.js'),
  ]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return null;
}

function importsOf(file: string): Array<{ specifier: string; typeOnly: boolean }> {
  const source = ts.createSourceFile(
    file,
    fs.readFileSync(file, 'utf8'),
    ts.ScriptTarget.Latest,
    false,
    file.endsWith('.js') ? ts.ScriptKind.JS : ts.ScriptKind.TS,
  );
  const found: Array<{ specifier: string; typeOnly: boolean }> = [];
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const named =
        clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : undefined;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly || (!clause.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)));
      found.push({ specifier: node.moduleSpecifier.text, typeOnly });
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : undefined;
      found.push({
        specifier: node.moduleSpecifier.text,
        typeOnly: node.isTypeOnly || (!!named && named.length > 0 && named.every((e) => e.isTypeOnly)),
      });
    } else if (ts.isCallExpression(node) && node.arguments.length === 1 && ts.isStringLiteral(node.arguments[0])) {
      const callee = node.expression;
      const isRequire = ts.isIdentifier(callee) && callee.text === 'require';
      const isDynamic = callee.kind === ts.SyntaxKind.ImportKeyword;
      if (isRequire || isDynamic)
        found.push({ specifier: (node.arguments[0] as ts.StringLiteral).text, typeOnly: false });
    } else if (
      ts.isImportTypeNode(node) &&
      ts.isLiteralTypeNode(node.argument) &&
      ts.isStringLiteral(node.argument.literal)
    ) {
      found.push({ specifier: node.argument.literal.text, typeOnly: true });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

export interface ImportGraph {
  files: string[];
  edges: ImportEdge[];
  /** Relative imports that resolve to no file (a broken path). */
  unresolved: Array<{ from: string; specifier: string }>;
}

export function readImportGraph(root = ROOT): ImportGraph {
  const files = SOURCE_DIRS.filter((d) => fs.existsSync(path.join(root, d)))
    .flatMap((d) => listSources(path.join(root, d)))
    .filter((f) => !f.includes(`${path.sep}static${path.sep}`));
  const rel = (f: string) => path.relative(root, f).split(path.sep).join('/');
  const edges: ImportEdge[] = [];
  const unresolved: ImportGraph['unresolved'] = [];
  for (const file of files) {
    for (const { specifier, typeOnly } of importsOf(file)) {
      if (!specifier.startsWith('.') && !specifier.startsWith('#')) continue;
      const target = resolveImport(root, file, specifier);
      if (!target) unresolved.push({ from: rel(file), specifier });
      else edges.push({ from: rel(file), to: rel(target), typeOnly, specifier });
    }
  }
  return { files: files.map(rel).sort(), edges, unresolved };
}

/** Strongly connected components of more than one file (or a file importing itself): the import cycles. */
export function findCycles(graph: ImportGraph, opts: { includeTypeOnly: boolean }): string[][] {
  const adjacency = new Map<string, string[]>(graph.files.map((f) => [f, []]));
  for (const e of graph.edges) if (opts.includeTypeOnly || !e.typeOnly) adjacency.get(e.from)?.push(e.to);
  let index = 0;
  const indices = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const strongConnect = (v: string) => {
    indices.set(v, index);
    low.set(v, index);
    index++;
    stack.push(v);
    onStack.add(v);
    for (const w of adjacency.get(v) ?? []) {
      if (!indices.has(w)) {
        strongConnect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, indices.get(w)!));
    }
    if (low.get(v) === indices.get(v)) {
      const component: string[] = [];
      let w: string;
      do {
        w = stack.pop()!;
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (adjacency.get(v) ?? []).includes(v)) components.push(component.sort());
    }
  };
  for (const f of graph.files) if (!indices.has(f)) strongConnect(f);
  return components;
}

const isContract = (f: string) => /^workflows\/[^/]+\/contract\.ts$/.test(f);
const isWorkflowClient = (f: string) => /^workflows\/[^/]+\/client\.ts$/.test(f);
/** Workflow implementation code: bundled into the worker's V8 isolate. */
export const isWorkflowCode = (f: string) =>
  f.startsWith('workflows/') && !isWorkflowClient(f) && !f.endsWith('.test.ts') && !f.endsWith('README.md');
const isWorkflowImplementation = (f: string) =>
  isWorkflowCode(f) && !isContract(f) && f !== 'workflows/index.ts' && !f.startsWith('workflows/shared/');

const isPage = (f: string) => /^apps\/api\/src\/.+-pages\.ts$/.test(f);
const isRouteModule = (f: string) => /^apps\/api\/src\/.+-routes\.ts$/.test(f);
/** The capability folder of an API file (`apps/api/src/<cap>/…`), or null for plugins/, web/, platform/ and the root. */
const apiCapabilityOf = (f: string): string | null => {
  const m = /^apps\/api\/src\/([^/]+)\//.exec(f);
  return m && (CAPABILITIES as readonly string[]).includes(m[1]) ? m[1] : null;
};

export interface Violation {
  rule: string;
  from: string;
  to: string;
}

/** The import rules of docs/ARCHITECTURE.md, as data. */
export function findViolations(graph: ImportGraph): Violation[] {
  const out: Violation[] = [];
  const layer = (f: string) => f.split('/')[0];
  for (const e of graph.edges) {
    const add = (rule: string) => out.push({ rule, from: e.from, to: e.to });
    // Workflow implementations are imported only by the worker's bundle (workflows/index.ts) and by each other.
    const insideWorkerCode = (isWorkflowCode(e.from) && !isWorkflowClient(e.from)) || e.from.startsWith('apps/worker/');
    if (isWorkflowImplementation(e.to) && !insideWorkerCode)
      add('a workflow implementation is imported only inside workflows/ and by the worker');
    // Workflow code (and contracts) may import other workflow code, and activities only as types.
    if (isWorkflowCode(e.from) && !e.typeOnly && !isWorkflowCode(e.to))
      add('workflow code imports only workflow code (activities as types)');
    if (isContract(e.from) && !isContract(e.to) && !e.typeOnly) add('a contract imports only other contracts');
    if ((layer(e.from) === 'db' || layer(e.from) === 'lib') && layer(e.to) === 'apps')
      add(`nothing under ${layer(e.from)}/ imports apps/`);
    if (layer(e.from) === 'lib' && ['workflows', 'activities', 'db', 'domain'].includes(layer(e.to)))
      add('nothing under lib/ imports a capability');
    if (PRODUCTION.includes(layer(e.from)) && ['dev', 'test', 'bench'].includes(layer(e.to)))
      add('production code imports nothing from dev/, test/ or bench/');
    // domain/<cap>/ is capability code both processes share: pure, over lib/ and its own capability only.
    if (
      layer(e.from) === 'domain' &&
      layer(e.to) !== 'lib' &&
      !(layer(e.to) === 'domain' && e.to.split('/')[1] === e.from.split('/')[1])
    )
      add('domain/<cap>/ imports only lib/ and its own capability');
    if (layer(e.from) === 'db' && ['activities', 'workflows'].includes(layer(e.to)) && !e.typeOnly && !isContract(e.to))
      add('db/ imports no activities or workflow code');
    if (layer(e.from) === 'activities' && layer(e.to) === 'apps') add('activities import nothing from apps/');
    if (e.from.startsWith('apps/api/') && e.to.startsWith('activities/') && !e.typeOnly)
      add("the API does not import the worker's activities");
    if (e.from.startsWith('apps/api/') && e.to.startsWith('apps/worker/')) add('the API does not import the worker');
    if (isPage(e.from) && isRouteModule(e.to))
      add('a page never imports a route module (schemas come from *-schemas.ts)');
    // Another capability's public face is its *-service.ts and *-schemas.ts; pages may also compose its *-pages.ts sections.
    const [fromCap, toCap] = [apiCapabilityOf(e.from), apiCapabilityOf(e.to)];
    if (
      fromCap &&
      toCap &&
      fromCap !== toCap &&
      !/-(service|schemas)\.ts$/.test(e.to) &&
      !(isPage(e.from) && isPage(e.to))
    )
      add("a capability imports another capability's *-service.ts or *-schemas.ts only (a page also its pages)");
    if (e.from.startsWith('apps/worker/') && e.to.startsWith('apps/api/')) add('the worker does not import the API');
    // One import style: another top-level folder by its short name (the workflow bundle keeps relative imports).
    if (layer(e.from) !== 'workflows' && layer(e.from) !== layer(e.to) && !e.specifier.startsWith('#'))
      add('outside workflows/, another top-level folder is imported by its # name, never a relative path');
  }
  return out;
}

/** For each capability, the files that carry its name, per layer (the folder `<layer>/<cap>/`, or a file named after it). */
export function filesPerCapability(graph: ImportGraph): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  for (const cap of CAPABILITIES) {
    const layers: Record<string, number> = {};
    for (const f of graph.files) {
      const parts = f.split('/');
      if (!parts.some((p) => p === cap || p.startsWith(`${cap}-`) || p.startsWith(`${cap}.`))) continue;
      const layerName = f.startsWith('apps/api/')
        ? 'apps/api'
        : f.startsWith('apps/worker/')
          ? 'apps/worker'
          : parts[0];
      layers[layerName] = (layers[layerName] ?? 0) + 1;
    }
    out[cap] = layers;
  }
  return out;
}

/** Where capability code may live per layer: a capability folder, or one of the named platform folders. */
export const LAYER_FOLDERS: Record<string, readonly string[]> = {
  'workflows/': [...CAPABILITIES, 'shared'],
  'activities/': CAPABILITIES,
  'db/': [...CAPABILITIES, 'migrations'],
  'domain/': CAPABILITIES,
  'apps/api/src/': [...CAPABILITIES, 'plugins', 'platform', 'web'],
  'test/': [...CAPABILITIES, 'helpers', 'platform', 'foundation', 'architecture', 'web', 'replay'],
};

/** Files in a layer's sub-folder that is neither a capability nor a platform folder (e.g. `apps/api/src/routes/queue/`). */
export function filesOutsideCapabilityFolders(graph: ImportGraph): string[] {
  return graph.files.filter((file) =>
    Object.entries(LAYER_FOLDERS).some(([prefix, names]) => {
      if (!file.startsWith(prefix)) return false;
      const rest = file.slice(prefix.length).split('/');
      return rest.length > 1 && !names.includes(rest[0]);
    }),
  );
}

/** The deepest `../` chain among relative imports (how far a file reaches across the tree). */
export function longestRelativeImport(graph: ImportGraph): { depth: number; edge: ImportEdge | null } {
  let best: { depth: number; edge: ImportEdge | null } = { depth: 0, edge: null };
  for (const e of graph.edges) {
    const depth = e.specifier.split('/').filter((p) => p === '..').length;
    if (depth > best.depth) best = { depth, edge: e };
  }
  return best;
}

function main() {
  const graph = readImportGraph();
  const runtimeCycles = findCycles(graph, { includeTypeOnly: false });
  const allCycles = findCycles(graph, { includeTypeOnly: true });
  const violations = findViolations(graph);
  const longest = longestRelativeImport(graph);
  const report = {
    files: graph.files.length,
    imports: graph.edges.length,
    unresolved: graph.unresolved,
    cycles: { runtime: runtimeCycles, includingTypeOnly: allCycles },
    violations,
    filesPerCapability: filesPerCapability(graph),
    filesOutsideCapabilityFolders: filesOutsideCapabilityFolders(graph),
    longestRelativeImport: longest.edge
      ? { depth: longest.depth, from: longest.edge.from, specifier: longest.edge.specifier }
      : null,
  };
  if (process.argv.includes('--json')) {
    console.log(JSON.stringify(report, null, 2));
    return;
  }
  console.log(`${report.files} files, ${report.imports} relative imports, ${graph.unresolved.length} unresolved`);
  console.log(`import cycles: ${runtimeCycles.length} at run time, ${allCycles.length} counting type-only imports`);
  for (const c of allCycles) console.log(`  cycle: ${c.join(' ↔ ')}`);
  console.log(`layering violations: ${violations.length}`);
  for (const v of violations) console.log(`  ${v.from} → ${v.to}: ${v.rule}`);
  console.log('files per capability (per layer):');
  for (const [cap, layers] of Object.entries(report.filesPerCapability)) {
    const total = Object.values(layers).reduce((a, b) => a + b, 0);
    console.log(
      `  ${cap.padEnd(14)} ${String(total).padStart(3)}  ${Object.entries(layers)
        .map(([l, n]) => `${l}:${n}`)
        .join(' ')}`,
    );
  }
  const outside = report.filesOutsideCapabilityFolders;
  const outsideFolders = [...new Set(outside.map((f) => f.split('/').slice(0, -1).join('/')))];
  console.log(
    `files outside a capability folder: ${outside.length}${outsideFolders.length ? ` (in ${outsideFolders.join(', ')})` : ''}`,
  );
  if (report.longestRelativeImport)
    console.log(
      `longest relative import: ${report.longestRelativeImport.depth} × '../' (${report.longestRelativeImport.from}: ` +
        `'${report.longestRelativeImport.specifier}')`,
    );
}

if (require.main === module) main();
