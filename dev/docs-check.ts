import fs from 'node:fs';
import path from 'node:path';

/**
 * `npm run docs:check`: the rules the README and docs/ keep so a newcomer can read them. Every
 * relative Markdown link resolves to a file (and its #anchor to a heading), and no paragraph of
 * prose runs over PARAGRAPH_LIMIT characters (tables and code blocks excepted; each list item
 * counts as a paragraph of its own). test/architecture/docs.test.ts runs the same checks.
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

export function checkDocs(root = ROOT): DocFinding[] {
  const findings: DocFinding[] = [];
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
    for (const name of fs.readdirSync(path.join(root, dir)).filter((f) => /^\d{4}-.*\.md$/.test(f))) {
      const text = fs.readFileSync(path.join(root, dir, name), 'utf8');
      const title =
        /^#\s+(.*)$/m
          .exec(text)?.[1]
          .replace(/^\d{4}\s*[—–-]\s*/, '')
          .trim() ?? name;
      const status = /^Status:\s*(.+)$/m.exec(text)?.[1].trim() ?? null;
      out.push({ file: `${dir}/${name}`, number: name.slice(0, 4), title, status });
    }
  }
  return out.sort((a, b) => a.number.localeCompare(b.number));
}

/** docs/decisions/README.md: every record with its status, rendered from the records themselves. */
export function renderDecisionsIndex(root = ROOT): string {
  const records = decisionRecords(root);
  const link = (r: RecordEntry) => `[${r.number}](${path.posix.relative('docs/decisions', r.file)})`;
  const row = (r: RecordEntry) => `| ${link(r)} | ${r.title.replace(/\|/g, '\\|')} | ${r.status ?? '—'} |`;
  const decisions = records.filter((r) => r.file.startsWith('docs/decisions/'));
  const measurements = records.filter((r) => r.file.startsWith('docs/measurements/'));
  return [
    '# Decision records',
    '',
    'Each record is a choice we made, with the alternatives and the reasons: short, dated by ' +
      'its number, never rewritten once superseded.',
    'How a capability works today is in the [design pages](../design/README.md); a record says why.',
    'Records that only report measurements live in [docs/measurements](../measurements/).',
    '',
    'Status: `accepted` (in force), `accepted; amended by N` (in force, partly changed by a ' +
      'later record), `superseded by N` (read N instead), `measurement` (figures only, no ' +
      'choice).',
    '',
    "This page is generated from the records' status lines: `npm run docs:check -- --write`.",
    '',
    '## Decisions',
    '',
    '| record | title | status |',
    '|---|---|---|',
    ...decisions.map(row),
    '',
    '## Measurements',
    '',
    '| record | title | status |',
    '|---|---|---|',
    ...measurements.map(row),
    '',
  ].join('\n');
}

if (require.main === module) {
  if (process.argv.includes('--write'))
    fs.writeFileSync(path.join(ROOT, 'docs', 'decisions', 'README.md'), renderDecisionsIndex());
  const findings = checkDocs();
  for (const f of findings) console.log(`${f.file}:${f.line}: ${f.problem}`);
  console.log(
    findings.length === 0
      ? 'docs: every link resolves, every paragraph is short'
      : `docs: ${findings.length} finding(s)`,
  );
  process.exit(findings.length === 0 ? 0 : 1);
}
