import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * `npm run bench -- <name> [args…]` runs bench/<name>.ts with the remaining arguments.
 * Benchmarks are kept out of the test suite: they seed large data sets and take minutes.
 */
const [name, ...args] = process.argv.slice(2);
const available = fs
  .readdirSync(__dirname)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts' && f !== 'common.ts')
  .map((f) => f.replace(/\.ts$/, ''));
if (!name || !available.includes(name)) {
  console.error(`usage: npm run bench -- <${available.join('|')}> [options]`);
  process.exit(name ? 1 : 0);
}
const tsx = path.join(__dirname, '..', 'node_modules', '.bin', 'tsx');
const res = spawnSync(tsx, [path.join(__dirname, `${name}.ts`), ...args], { stdio: 'inherit' });
process.exit(res.status ?? 1);
