import { describeConfig } from '../lib/config';

/** Prints the README's configuration table from the config schema (`npx tsx scripts/config-table.ts`). */
const rows = describeConfig();
console.log('| Variable | Default | Meaning |\n|---|---|---|');
for (const r of rows) console.log(`| \`${r.name}\` | ${r.default ? `\`${r.default}\`` : '—'} | ${r.description} |`);
