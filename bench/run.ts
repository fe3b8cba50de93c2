import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/**
 * `npm run bench` (no arguments, or only options such as `--quick`) runs the whole table,
 * bench/suite.ts. `npm run bench -- <name> [args…]` runs bench/<name>.ts with the remaining
 * arguments. Benchmarks are kept out of the test suite: they seed large data sets and take minutes.
 */
const argv = process.argv.slice(2);
const [name, ...args] = argv.length === 0 || argv[0].startsWith('--') ? ['suite', ...argv] : argv;
const available = fs
  .readdirSync(__dirname)
  .filter((f) => f.endsWith('.ts') && f !== 'run.ts')
  .map((f) => f.replace(/\.ts$/, ''));
if (!available.includes(name)) {
  console.error(
    `usage: npm run bench [-- --quick]   (the whole table)\n       npm run bench -- <${available.join('|')}> [options]`,
  );
  process.exit(1);
}
const tsx = path.join(__dirname, '..', 'node_modules', '.bin', 'tsx');
const res = spawnSync(tsx, [path.join(__dirname, `${name}.ts`), ...args], { stdio: 'inherit' });
process.exit(res.status ?? 1);
