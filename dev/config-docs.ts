import fs from 'node:fs';
import path from 'node:path';
import { describeConfig, type ConfigGroup } from '#lib/config';

/**
 * `npm run docs:config`: rewrites the configuration tables of docs/configuration.md (between its
 * markers, one table per group) and `.env.example` from the config schema, so the docs cannot
 * drift from lib/config.ts.
 */
const ROOT = path.resolve(__dirname, '..');
const rows = describeConfig();
const GROUPS: ConfigGroup[] = ['required in production', 'commonly set', 'tuning'];
const tables = GROUPS.map((group) => {
  const title = group[0].toUpperCase() + group.slice(1);
  const lines = rows
    .filter((r) => r.group === group)
    .map((r) => `| \`${r.name}\` | ${r.default ? `\`${r.default}\`` : '—'} | ${r.description} |`);
  return [`### ${title}`, '', '| Variable | Default | Meaning |', '|---|---|---|', ...lines].join('\n');
}).join('\n\n');
const docPath = path.join(ROOT, 'docs', 'configuration.md');
const doc = fs.readFileSync(docPath, 'utf8');
const start = '<!-- config-table:start -->';
const end = '<!-- config-table:end -->';
const i = doc.indexOf(start);
const j = doc.indexOf(end);
if (i < 0 || j < i) throw new Error(`docs/configuration.md lacks the ${start} … ${end} markers`);
fs.writeFileSync(docPath, `${doc.slice(0, i + start.length)}\n${tables}\n${doc.slice(j)}`);
const example = rows.map((r) => `# ${r.description}\n${r.default ? '' : '# '}${r.name}=${r.default}`).join('\n');
fs.writeFileSync(path.join(ROOT, '.env.example'), `${example}\n`);
console.log(`docs/configuration.md and .env.example: ${rows.length} variables`);
