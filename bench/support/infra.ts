/** Infrastructure helpers the benches share: the production build, databases, processes, the machine's load. */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensureDatabase } from '#dev/postgres-server';
import { createKnex, migrateLatest } from '#db/knex';
import { createRepositories } from '#db/repositories';
import { displayPrefix, generateToken, hashToken } from '#lib/tokens';
import type { Knex } from 'knex';

export const ROOT = path.join(__dirname, '..', '..');

/** The 1/5/15-minute load average, as the benches print it. */
export const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

/** Resident set size of a process, in MiB (NaN without a pid). */
export const rssMiB = (pid: number | undefined) => {
  if (!pid) return NaN;
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
};

/**
 * Proportional set size of some processes together, in MiB: each shared page counted once across
 * them (a PostgreSQL server's shared buffers, nginx's workers), where summed RSS would count it per
 * process. Processes that are gone count nothing.
 */
export const pssMiB = (pids: number[]) =>
  pids.reduce((total, pid) => {
    try {
      const m = /^Pss:\s+(\d+) kB/m.exec(fs.readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'));
      return total + (m ? Number(m[1]) / 1024 : 0);
    } catch {
      return total;
    }
  }, 0);

/** Builds the production output into `dir` (inside the repository, so node_modules resolve). */
export function buildDist(dir: string): void {
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'dev/build-dist.ts'), '--out', dir], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`build:dist failed: ${r.stderr}`);
}

/** Polls `check` until it answers true (a throw counts as not yet). */
export async function waitFor(
  what: string,
  check: () => Promise<boolean>,
  o: { timeoutMs?: number; everyMs?: number } = {},
): Promise<void> {
  const timeoutMs = o.timeoutMs ?? 120_000;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`${what}: not ready after ${timeoutMs / 1000} s`);
    await new Promise((r) => setTimeout(r, o.everyMs ?? 200));
  }
}

/** The URL of database `db` on the server of `adminUrl`. */
export const dbUrlFor = (adminUrl: string, db: string) => adminUrl.replace(/\/[^/?]+(\?|$)/, `/${db}$1`);

/** Database `db` (created if absent) migrated to the latest schema, with a pool of `poolMax`. */
export async function migratedDatabase(
  adminUrl: string,
  db: string,
  poolMax: number,
): Promise<{ url: string; knex: Knex }> {
  await ensureDatabase(adminUrl, db);
  const url = dbUrlFor(adminUrl, db);
  const knex = createKnex(url, poolMax);
  await migrateLatest(knex);
  return { url, knex };
}

/** A seeker with an API token of `scopes` (the token in clear, for the Authorization header). */
export async function userWithToken(
  knex: Knex,
  u: { email: string; displayName: string; tokenName: string; scopes: string[] },
): Promise<string> {
  const repos = createRepositories(knex);
  const user = await repos.accounts.insertUser({ email: u.email, display_name: u.displayName, role: 'seeker' });
  const token = generateToken();
  await repos.tokens.insert({
    user_id: user.id,
    name: u.tokenName,
    token_hash: hashToken(token),
    display_prefix: displayPrefix(token),
    scopes: u.scopes,
    expires_at: null,
  });
  return token;
}

/** `--dist <dir>`: a production output built already; else one built here into a git-ignored dist/ folder (`builtHere`: remove it afterwards). */
export function distFromArgs(argv: string[]): { distDir: string; builtHere: boolean } {
  const distArg = argv.indexOf('--dist');
  const builtHere = distArg < 0;
  return {
    distDir: builtHere
      ? path.join(ROOT, 'dist', `bench-${randomBytes(4).toString('hex')}`)
      : path.resolve(argv[distArg + 1]),
    builtHere,
  };
}
