import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { onPath } from '../go-install';

const ROOT = path.resolve(__dirname, '..', '..');

/** Builds the production output into `out` (as the Dockerfile does), reporting how long it took. */
export function buildDist(out: string, log: (l: string) => void): void {
  const t = Date.now();
  log(`building the production output (npm run build:dist) into ${path.relative(ROOT, out)}/ …`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'dev/build-dist.ts'), '--out', out], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (r.status !== 0) throw new Error(`build:dist failed:\n${r.stdout}${r.stderr}`);
  log(`production output built in ${((Date.now() - t) / 1000).toFixed(1)} s`);
}

/**
 * The Debian programs the cluster runs (NGINX_BIN, PROMETHEUS_BIN, else PATH or /usr/sbin,
 * /usr/bin). A missing one is installed with apt once when this is a root shell with apt (our
 * machines, CI, a fresh container), as `npm test` installs its Debian packages; else a clear
 * message names the package.
 */
export function clusterPrograms(log: (l: string) => void): {
  nginx: string;
  prometheus: string;
  nginxExporter: string;
} {
  const find = (bin: string, override: string | undefined) =>
    override ?? onPath(bin) ?? [`/usr/sbin/${bin}`, `/usr/bin/${bin}`].find((x) => fs.existsSync(x));
  const wanted = {
    nginx: 'nginx-light',
    prometheus: 'prometheus',
    'prometheus-nginx-exporter': 'prometheus-nginx-exporter',
  } as const;
  const overrides = {
    nginx: process.env.NGINX_BIN,
    prometheus: process.env.PROMETHEUS_BIN,
    'prometheus-nginx-exporter': process.env.NGINX_EXPORTER_BIN,
  };
  const missing = (Object.keys(wanted) as Array<keyof typeof wanted>).filter((b) => !find(b, overrides[b]));
  if (missing.length) {
    const pkgs = missing.map((b) => wanted[b]);
    if (process.getuid?.() !== 0 || !fs.existsSync('/usr/bin/apt-get'))
      throw new Error(
        `${missing.join(' and ')} not found: install Debian's ${pkgs.join(' ')} (apt-get install -y ${pkgs.join(' ')})`,
      );
    log(`installing Debian ${pkgs.join(' ')} (once per machine)…`);
    const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
    for (const args of [
      ['update', '-qq'],
      ['install', '-y', '-qq', ...pkgs],
    ]) {
      const r = spawnSync('apt-get', args, { stdio: ['ignore', 'ignore', 'inherit'], env });
      if (r.status !== 0)
        throw new Error(`apt-get ${args.join(' ')} failed (exit ${r.status}); install ${pkgs.join(' ')} by hand`);
    }
  }
  return {
    nginx: find('nginx', overrides.nginx)!,
    prometheus: find('prometheus', overrides.prometheus)!,
    nginxExporter: find('prometheus-nginx-exporter', overrides['prometheus-nginx-exporter'])!,
  };
}
