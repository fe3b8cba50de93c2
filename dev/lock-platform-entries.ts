/**
 * Adds package-lock.json entries for optional platform binaries (`@swc/core-darwin-arm64`, …) that
 * the lock is missing. Why: npm writes a lock from the registry it reaches; when that registry does
 * not serve another platform's binary (404), the lock lacks the entry, and `npm ci` on every machine
 * then refuses the lock ("Missing: @swc/core-darwin-arm64@ from lock file") — npm's ci check counts
 * the failed optional node it builds for the missing entry. An entry carrying the exact version the
 * parent pins and the platform (`os`, `cpu`, `libc`) lets npm mark it inert here, as it does for any
 * optional package of another platform, and install it on that platform. No integrity is written,
 * because none could be fetched here; npm records none and checks the tarball's own on install.
 *
 * Usage: `npm run lock:platforms` (rewrites package-lock.json) or `-- --check` (exit 1 when missing).
 * See docs/decisions/0150-reproducible-installs.md.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

type LockEntry = {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  os?: string[];
  cpu?: string[];
  libc?: string[];
  optionalDependencies?: Record<string, string>;
  [key: string]: unknown;
};
type Lock = { packages: Record<string, LockEntry> };

const OS = ['android', 'darwin', 'freebsd', 'linux', 'openharmony', 'win32'] as const;
const CPU = ['arm64', 'arm', 'x64', 'ia32', 'ppc64', 's390x', 'riscv64', 'loong64', 'wasm32'] as const;

/** Reads the platform from a binary package's name the way swc, napi-rs and unrs name them. */
export function platformOf(name: string): Pick<LockEntry, 'os' | 'cpu' | 'libc'> | undefined {
  const parts = name.split('/').pop()!.split('-');
  const os = parts.find((part) => (OS as readonly string[]).includes(part));
  const cpu = parts.find((part) => (CPU as readonly string[]).includes(part));
  if (cpu === 'wasm32') return { cpu: ['wasm32'] };
  if (!os || !cpu) return undefined;
  const abi = parts[parts.indexOf(cpu) + 1] ?? '';
  const libc =
    os !== 'linux' ? undefined : abi.startsWith('musl') ? 'musl' : abi.startsWith('gnu') ? 'glibc' : undefined;
  return { os: [os], cpu: [cpu], ...(libc ? { libc: [libc] } : {}) };
}

export function missingPlatformEntries(lock: Lock): Record<string, LockEntry> {
  const added: Record<string, LockEntry> = {};
  for (const [location, entry] of Object.entries(lock.packages)) {
    for (const [name, spec] of Object.entries(entry.optionalDependencies ?? {})) {
      const base = location === '' ? '' : `${location}/`;
      // npm resolves from the parent's node_modules up to the root; an entry at either counts.
      if (lock.packages[`${base}node_modules/${name}`] || lock.packages[`node_modules/${name}`]) continue;
      const platform = platformOf(name);
      if (!platform || !/^\d+\.\d+\.\d+(-[\w.]+)?$/.test(spec)) continue;
      // Field order as npm writes it (version, then alphabetical), so `npm install` rewrites nothing.
      added[`node_modules/${name}`] = {
        version: spec,
        ...(platform.cpu ? { cpu: platform.cpu } : {}),
        // A binary of a dev-only parent is dev-only too (npm's own flag, so `npm ci --omit=dev` skips it).
        ...(entry.dev ? { dev: true } : {}),
        ...(platform.libc ? { libc: platform.libc } : {}),
        optional: true,
        ...(platform.os ? { os: platform.os } : {}),
      };
    }
  }
  return added;
}

function main(): void {
  const path = resolve(__dirname, '..', 'package-lock.json');
  const lock = JSON.parse(readFileSync(path, 'utf8')) as Lock;
  const added = missingPlatformEntries(lock);
  const names = Object.keys(added);
  if (process.argv.includes('--check')) {
    if (names.length) {
      console.error(
        `package-lock.json lacks ${names.length} optional platform entries: ${names.join(', ')}\nRun: ` +
          `npm run lock:platforms`,
      );
      process.exit(1);
    }
    console.log('package-lock.json has an entry for every optional platform package');
    return;
  }
  // Keys in npm's order (sorted by location) so a later `npm install` leaves the file as it is.
  const packages = { ...lock.packages, ...added };
  const sorted = Object.fromEntries(
    Object.keys(packages)
      .sort((a, b) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b, 'en')))
      .map((key) => [key, packages[key]]),
  );
  writeFileSync(path, `${JSON.stringify({ ...lock, packages: sorted }, null, 2)}\n`);
  console.log(`added ${names.length} entries${names.length ? `: ${names.join(', ')}` : ''}`);
}

if (require.main === module) main();
