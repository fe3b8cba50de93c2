import fs from 'node:fs';
import path from 'node:path';

/**
 * `npm run docs:check`: the rules the README and docs/ keep so a newcomer can read them. Every
 * relative Markdown link resolves to a file (and its #anchor to a heading), and no paragraph of
 * prose runs over PARAGRAPH_LIMIT characters (tables and code blocks excepted; each list item
 * counts as a paragraph of its own), and the code map names every capability folder and module
 * (checkMap). test/architecture/docs.test.ts runs the same checks.
 */
export const PARAGRAPH_LIMIT = 600;
const ROOT = path.resolve(__dirname, '..');

export interface DocFinding {
  file: string;
  line: number;
  problem: string;
}

/** Every Markdown file a reader of the repository meets: the root's and everything under docs/. */
export function markdownFiles(root = ROOT): string[] {
  const out = fs.readdirSync(root).filter((f) => f.endsWith('.md'));
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const rel = path.join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.md')) out.push(rel);
    }
  };
  walk('docs');
  return out.sort();
}

/** Prose paragraphs with the line each starts on: blank-line separated, list items apart. */
export function paragraphs(text: string): Array<{ line: number; text: string }> {
  const out: Array<{ line: number; text: string }> = [];
  let current: { line: number; lines: string[] } | null = null;
  let fenced = false;
  const flush = () => {
    if (current) out.push({ line: current.line, text: current.lines.join(' ').trim() });
    current = null;
  };
  text.split('\n').forEach((raw, i) => {
    const line = raw.trimEnd();
    if (/^\s*(```|~~~)/.test(line)) {
      flush();
      fenced = !fenced;
      return;
    }
    if (fenced || line.trim() === '' || /^\s*\|/.test(line) || /^\s*<!--/.test(line) || /^#/.test(line)) {
      flush();
      return;
    }
    if (/^\s*([-*+]|\d+[.)])\s/.test(line)) flush();
    if (!current) current = { line: i + 1, lines: [] };
    current.lines.push(line.trim());
  });
  flush();
  return out;
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
function anchors(text: string): Set<string> {
  const set = new Set<string>();
  let fenced = false;
  for (const line of text.split('\n')) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = !fenced && /^#{1,6}\s+(.*)$/.exec(line);
    if (m) {
      set.add(
        m[1]
          .trim()
          .toLowerCase()
          .replace(/[^\p{L}\p{N}\s_-]/gu, '')
          .replace(/\s/g, '-'),
      );
    }
  }
  return set;
}

/** Every design page is listed in docs/design/README.md, so a new page is found from the index. */
function checkDesignIndex(root: string): DocFinding[] {
  const dir = path.join(root, 'docs', 'design');
  if (!fs.existsSync(path.join(dir, 'README.md'))) return [];
  const index = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.md') && f !== 'README.md' && !index.includes(`](${f})`))
    .map((f) => ({ file: 'docs/design/README.md', line: 1, problem: `does not list the design page ${f}` }));
}

export function checkDocs(root = ROOT): DocFinding[] {
  const findings: DocFinding[] = checkDesignIndex(root);
  for (const file of markdownFiles(root)) {
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    for (const p of paragraphs(text)) {
      if (p.text.length > PARAGRAPH_LIMIT)
        findings.push({
          file,
          line: p.line,
          problem: `paragraph of ${p.text.length} characters (limit ${PARAGRAPH_LIMIT})`,
        });
    }
    let fenced = false;
    text.split('\n').forEach((line, i) => {
      if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
      if (fenced) return;
      for (const m of line.replace(/`[^`]*`/g, '').matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
        const target = m[1];
        if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) continue;
        const [rawPath, anchor] = target.split('#');
        const resolved = rawPath
          ? path.join(path.dirname(path.join(root, file)), decodeURIComponent(rawPath))
          : path.join(root, file);
        if (!fs.existsSync(resolved)) {
          findings.push({ file, line: i + 1, problem: `link to a missing file: ${target}` });
          continue;
        }
        if (anchor && resolved.endsWith('.md') && !anchors(fs.readFileSync(resolved, 'utf8')).has(anchor)) {
          findings.push({ file, line: i + 1, problem: `link to a missing heading: ${target}` });
        }
      }
    });
  }
  return findings;
}

/**
 * The code map: every capability folder under these layers, and every source module in it, is named
 * in its row of docs/ARCHITECTURE.md's capability table, in the layer's column (and db/'s also in
 * db/README.md). Folders that hold shared code, not a capability, are left out.
 */
export const MAP_LAYERS = [
  { root: 'apps/api/src', shared: ['plugins', 'web', 'platform'] },
  { root: 'workflows', shared: ['shared'] },
  { root: 'activities', shared: [] },
  { root: 'domain', shared: [] },
  { root: 'db', shared: ['migrations'] },
] as const;
const SOURCE = /\.(ts|js|cjs|mjs)$/;

/** A capability folder's source modules, as paths inside it (`billing-service/checkout.ts`); tests left out. */
export function capabilityModules(root: string, folder: string): string[] {
  const out: string[] = [];
  const walk = (rel: string): void => {
    for (const e of fs.readdirSync(path.join(root, folder, rel), { withFileTypes: true })) {
      const child = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory() && e.name !== 'test') walk(child);
      else if (e.isFile() && SOURCE.test(e.name) && !/\.test\./.test(e.name)) out.push(child);
    }
  };
  walk('');
  return out.sort();
}

/**
 * Whether `names` (a text's backtick spans) name a module: its base name (`oauth-service`), a
 * `prefix-*` pattern it or a folder it sits in fits (`oauth-*`), or that folder (`billing-service/`).
 */
export function isNamed(module: string, names: Set<string>): boolean {
  const parts = module.split('/');
  const base = parts[parts.length - 1].replace(SOURCE, '');
  const dirs = parts.slice(0, -1);
  if (names.has(base) || dirs.some((dir) => names.has(`${dir}/`))) return true;
  const prefixes = [...names].filter((n) => /^[\w.-]+-\*$/.test(n)).map((n) => n.slice(0, -1));
  return [base, ...dirs].some((part) => prefixes.some((prefix) => part.startsWith(prefix)));
}

const backtickNames = (text: string): Set<string> => new Set([...text.matchAll(/`([^`]+)`/g)].map((m) => m[1].trim()));

/** What a report names as missing: the module's base name, or the first folder it sits in. */
const missingName = (module: string): string =>
  module.includes('/') ? `${module.split('/')[0]}/` : module.replace(SOURCE, '');

interface MapRow {
  line: number;
  cells: Map<string, string>;
}

/** The capability table of docs/ARCHITECTURE.md: capability → its line and its cells by column header. */
export function capabilityTable(text: string): Map<string, MapRow> {
  const rows = new Map<string, MapRow>();
  const lines = text.split('\n');
  const start = lines.findIndex((l) => /^##\s+Capabilities\s*$/.test(l));
  if (start < 0) return rows;
  const split = (l: string) =>
    l
      .trim()
      .replace(/^\||\|$/g, '')
      .split('|')
      .map((c) => c.trim());
  let header: string[] | null = null;
  for (let i = start + 1; i < lines.length && !/^##\s/.test(lines[i]); i++) {
    if (!lines[i].trim().startsWith('|')) {
      if (header) break;
      continue;
    }
    const cells = split(lines[i]);
    if (!header) header = cells;
    else if (!/^-+$/.test(cells[0])) {
      const cap = /^`([^`]+)`/.exec(cells[0])?.[1];
      if (cap) rows.set(cap, { line: i + 1, cells: new Map(header.map((h, k) => [h, cells[k] ?? ''])) });
    }
  }
  return rows;
}

const quoted = (names: string[]): string => names.map((n) => `\`${n}\``).join(', ');
const ARCHITECTURE = 'docs/ARCHITECTURE.md';
/** A backtick span that reads as a module, a folder or a prefix pattern (not a path, a command or a route). */
const MODULE_NAME = /^[a-z0-9][a-z0-9.-]*(-\*|\/)?$/;

/** A layer's capability folders: every folder under it but its shared ones. */
function capabilityFolders(root: string, layer: (typeof MAP_LAYERS)[number]): string[] {
  if (!fs.existsSync(path.join(root, layer.root))) return [];
  return fs
    .readdirSync(path.join(root, layer.root), { withFileTypes: true })
    .filter((e) => e.isDirectory() && !(layer.shared as readonly string[]).includes(e.name))
    .map((e) => e.name)
    .sort();
}

/** The names of `names` that name nothing in `modules`: left in the map after a file moved or went. */
export function staleNames(names: Set<string>, modules: string[]): string[] {
  return [...names].filter((n) => MODULE_NAME.test(n) && !modules.some((m) => isNamed(m, new Set([n]))));
}

/** What one capability folder's modules miss: its row, its cell in the layer's column, and for db/ the README. */
function missingFromMap(root: string, folder: string, table: Map<string, MapRow>, dbNames: Set<string>): DocFinding[] {
  const [layerRoot, cap] = [path.posix.dirname(folder), path.posix.basename(folder)];
  const column = `\`${layerRoot}/<cap>/\``;
  const modules = capabilityModules(root, folder);
  const missing = (names: Set<string>) => [...new Set(modules.filter((m) => !isNamed(m, names)).map(missingName))];
  const row = table.get(cap);
  const findings: DocFinding[] = [];
  if (!row)
    findings.push({ file: ARCHITECTURE, line: 1, problem: `no row for the capability \`${cap}\` (${folder}/)` });
  const gone = row ? missing(backtickNames(row.cells.get(column) ?? '')) : [];
  if (row && gone.length > 0)
    findings.push({
      file: ARCHITECTURE,
      line: row.line,
      problem: `the \`${cap}\` row's ${column} cell does not name ${quoted(gone)}`,
    });
  const dbGone = [...(dbNames.has(`${cap}/`) ? [] : [`${cap}/`]), ...missing(dbNames)];
  if (layerRoot === 'db' && dbGone.length > 0)
    findings.push({ file: 'db/README.md', line: 1, problem: `does not name ${quoted(dbGone)} (${folder}/)` });
  return findings;
}

/**
 * The code map against the tree: every capability folder and module the map leaves out, and every
 * name in a layer's cell that names nothing there any more; each finding says where to fix it.
 */
export function checkMap(root = ROOT): DocFinding[] {
  const table = capabilityTable(fs.readFileSync(path.join(root, ARCHITECTURE), 'utf8'));
  const dbReadme = path.join(root, 'db', 'README.md');
  const dbNames = backtickNames(fs.existsSync(dbReadme) ? fs.readFileSync(dbReadme, 'utf8') : '');
  const findings: DocFinding[] = [];
  for (const layer of MAP_LAYERS) {
    const caps = capabilityFolders(root, layer);
    for (const cap of caps) findings.push(...missingFromMap(root, `${layer.root}/${cap}`, table, dbNames));
    const column = `\`${layer.root}/<cap>/\``;
    for (const [cap, row] of table) {
      const modules = caps.includes(cap) ? capabilityModules(root, `${layer.root}/${cap}`) : [];
      const stale = staleNames(backtickNames(row.cells.get(column) ?? ''), modules);
      if (stale.length > 0)
        findings.push({
          file: ARCHITECTURE,
          line: row.line,
          problem: `the \`${cap}\` row's ${column} cell names ${quoted(stale)}, not in ${layer.root}/${cap}/`,
        });
    }
  }
  return findings;
}

/** A record's number, title and status line (`Status: …` right under its title). */
export interface RecordEntry {
  file: string;
  number: string;
  title: string;
  status: string | null;
}

export function decisionRecords(root = ROOT): RecordEntry[] {
  const out: RecordEntry[] = [];
  for (const dir of ['docs/decisions', 'docs/measurements']) {
    if (!fs.existsSync(path.join(root, dir))) continue;
    for (const name of fs.readdirSync(path.join(root, dir)).filter((f) => /^\d{4}-\D.*\.md$/.test(f))) {
      const text = fs.readFileSync(path.join(root, dir, name), 'utf8');
      const title =
        /^#\s+(.*)$/m
          .exec(text)?.[1]
          .replace(/^\d{4}\s*[—–-]?\s*/, '')
          .trim() ?? name;
      const status = /^Status:\s*(.+)$/m.exec(text)?.[1].trim() ?? null;
      out.push({ file: `${dir}/${name}`, number: name.slice(0, 4), title, status });
    }
  }
  return out.sort((a, b) => a.number.localeCompare(b.number));
}

/** A record's title up to its first colon or semicolon, and a long one up to its first comma: enough to find it. */
const shortTitle = (title: string): string => {
  const head = title.split(/[:;] /)[0].trim();
  return head.split(/\s+/).length > 10 ? head.split(', ')[0] : head;
};

/** A status without its amendments: `accepted; amended by 0190` → `accepted`. */
const baseStatus = (status: string | null): string => (status ?? 'no status').split(';')[0].trim();

/** docs/decisions/README.md: every decision record with its status, rendered from the records themselves. */
export function renderDecisionsIndex(root = ROOT): string {
  const decisions = decisionRecords(root).filter((r) => r.file.startsWith('docs/decisions/'));
  return [
    '# Decision records',
    '',
    'Each record is a choice we made, its alternatives and its reasons, numbered in order and never rewritten once ' +
      'superseded. How a capability works today is in the [design pages](../design/README.md); a record says why. ' +
      'Records that only report figures, and dated bench runs, are in [measurements](../measurements/README.md).',
    '',
    'A status line under each title says whether the record is in force: `accepted`, `accepted; amended by N` ' +
      "(partly changed by a later record) or `superseded by N`. Generated from the records' status lines: " +
      '`npm run docs:check -- --write`.',
    ...[...new Set(decisions.map((r) => baseStatus(r.status)))].flatMap((status) => [
      '',
      `## ${status[0].toUpperCase()}${status.slice(1)}`,
      '',
      ...decisions
        .filter((r) => baseStatus(r.status) === status)
        .map((r) => {
          const rest = r.status?.split(';').slice(1).join(';').trim();
          return `- [${r.number}](${path.posix.basename(r.file)}) ${shortTitle(r.title)}${rest ? ` (${rest})` : ''}`;
        }),
    ]),
    '',
  ].join('\n');
}

/** A dated run's file (`2026-11-26-bench-cluster.md`) and its title. */
export function datedRuns(root = ROOT): Array<{ file: string; title: string }> {
  const dir = path.join(root, 'docs', 'measurements');
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => /^\d{4}-\d{2}-\d{2}-.*\.md$/.test(f))
    .sort()
    .map((file) => ({
      file,
      title: /^#\s+(.*)$/m.exec(fs.readFileSync(path.join(dir, file), 'utf8'))?.[1].trim() ?? file,
    }));
}

/** docs/measurements/README.md: the records that report figures only, then the dated bench runs. */
export function renderMeasurementsIndex(root = ROOT): string {
  const records = decisionRecords(root).filter((r) => r.file.startsWith('docs/measurements/'));
  return [
    '# Measurements',
    '',
    'Figures kept as they were measured, each with its command, date and machine load: records that changed nothing ' +
      'in the service (at most the bench), and dated runs of the benches. The current table of each bench is in ' +
      '[performance.md](../performance.md); the choices are in [decisions](../decisions/README.md). ' +
      "Generated from the files' titles: `npm run docs:check -- --write`.",
    '',
    '## Records',
    '',
    ...records.map((r) => `- [${r.number}](${path.posix.basename(r.file)}) ${shortTitle(r.title)}`),
    '',
    '## Dated runs',
    '',
    ...datedRuns(root).map(
      (r) => `- [${r.file.slice(0, 10)}](${r.file}) ${r.title.replace(/\s*\(\d+ \w+ \d{4}\)$/, '')}`,
    ),
    '',
  ].join('\n');
}

if (require.main === module) {
  if (process.argv.includes('--write')) {
    fs.writeFileSync(path.join(ROOT, 'docs', 'decisions', 'README.md'), renderDecisionsIndex());
    fs.writeFileSync(path.join(ROOT, 'docs', 'measurements', 'README.md'), renderMeasurementsIndex());
  }
  const findings = [...checkDocs(), ...checkMap()];
  for (const f of findings) console.log(`${f.file}:${f.line}: ${f.problem}`);
  console.log(
    findings.length === 0
      ? 'docs: every link resolves, every paragraph is short, the map names every capability folder and module'
      : `docs: ${findings.length} finding(s); a module is named by its base name, a \`prefix-*\` or its folder \`sub/\` in backticks`,
  );
  process.exit(findings.length === 0 ? 0 : 1);
}
