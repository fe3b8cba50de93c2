import fs from 'node:fs';
import path from 'node:path';
import { describeConfig } from '../lib/config';

/**
 * `npm run docs:config`: rewrites the README's configuration table (between its markers) and
 * `.env.example` from the config schema, so the docs cannot drift from lib/config.ts.
 */
const ROOT = path.resolve(__dirname, '..');
const rows = describeConfig();
const table = ['| Variable | Default | Meaning |', '|---|---|---|', ...rows.map((r) => `| \`${r.name}\` | ${r.default ? `\`${r.default}\`` : '—'} | ${r.description} |`)].join('\n');
const readmePath = path.join(ROOT, 'README.md');
const readme = fs.readFileSync(readmePath, 'utf8');
const start = '<!-- config-table:start -->';
const end = '<!-- config-table:end -->';
const i = readme.indexOf(start);
const j = readme.indexOf(end);
if (i < 0 || j < i) throw new Error(`README.md lacks the ${start} … ${end} markers`);
fs.writeFileSync(readmePath, `${readme.slice(0, i + start.length)}\n${table}\n${readme.slice(j)}`);
const example = rows.map((r) => `# ${r.description}\n${r.default ? '' : '# '}${r.name}=${r.default}`).join('\n');
fs.writeFileSync(path.join(ROOT, '.env.example'), `${example}\n`);
console.log(`README.md and .env.example: ${rows.length} variables`);
