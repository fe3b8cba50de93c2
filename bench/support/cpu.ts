/** CPU time of processes from /proc, for per-request CPU figures that machine load disturbs less than req/s. */
import fs from 'node:fs';

export const TICK_MS = 10; // USER_HZ = 100 on Linux

/** utime + stime of a process, in clock ticks (0 if it is gone). */
export function ticks(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
}

/** utime + stime of the children a process has waited for (cutime + cstime), in clock ticks: for PostgreSQL, its ended backends. */
export function childTicks(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(f[13]) + Number(f[14]);
  } catch {
    return 0;
  }
}

/** A process and its direct children (a postmaster's backends and writers, nginx's workers). */
export function withChildren(root: number): number[] {
  const all = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number);
  return [root, ...all.filter((p) => ppidOf(p) === root)];
}

function ppidOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return -1;
  }
}

/** The postmaster of the cluster in `dataDir` and its children (backends, writers). */
export function postgresPids(dataDir: string): number[] {
  const cmd = (pid: number) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    } catch {
      return '';
    }
  };
  const master = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map(Number)
    .find((p) => cmd(p).includes(dataDir) && cmd(p).includes('postgres'));
  if (!master) throw new Error(`no postmaster for ${dataDir}`);
  return withChildren(master);
}
