import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, loadConfig, describeConfig } from '#lib/config';
import { resolveTemporalCli, TemporalCliUnavailableError, cachedCliPath } from '#dev/temporal-server';

describe('configuration', () => {
  it('names every bad variable in one error', () => {
    let err: unknown;
    try {
      loadConfig({ PORT: 'eighty', QUEUE_ENTRY_TTL_MS: '-5', WEBHOOK_ALLOW_LOOPBACK: 'maybe', LOG_LEVEL: 'loud' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    for (const name of ['PORT', 'QUEUE_ENTRY_TTL_MS', 'WEBHOOK_ALLOW_LOOPBACK', 'LOG_LEVEL'])
      expect(msg).toContain(name);
    expect((err as ConfigError).problems).toHaveLength(4);
  });

  it('applies defaults and refuses production without APP_SECRET', () => {
    const c = loadConfig({});
    expect(c.PORT).toBe(3000);
    expect(c.publicBaseUrl).toBe('http://localhost:3000');
    expect(c.WEBHOOK_RETRY_SCHEDULE_MS).toEqual([30_000, 300_000, 1_800_000, 21_600_000, 86_400_000]);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(/APP_SECRET/);
  });

  it('documents every variable in the configuration tables (docs/configuration.md) and .env.example', () => {
    const root = path.resolve(__dirname, '..', '..');
    const readme = fs.readFileSync(path.join(root, 'docs', 'configuration.md'), 'utf8');
    const example = fs.readFileSync(path.join(root, '.env.example'), 'utf8');
    // `npm run docs:config` regenerates both from lib/config.ts.
    const missing = describeConfig().filter(
      (v) => !v.description || !readme.includes(`\`${v.name}\``) || !example.includes(`${v.name}=`),
    );
    expect(missing.map((v) => v.name)).toEqual([]);
  });

  it('keeps docker-compose.yml in step with the config schema', () => {
    const root = path.resolve(__dirname, '..', '..');
    const compose = fs.readFileSync(path.join(root, 'docker-compose.yml'), 'utf8');
    const names = new Set(describeConfig().map((v) => v.name));
    const block = compose.slice(compose.indexOf('x-app-env'), compose.indexOf('services:'));
    const used = [...block.matchAll(/^\s{2}([A-Z_]+):/gm)].map((m) => m[1]);
    expect(used.length).toBeGreaterThan(5);
    for (const u of used) expect(names.has(u)).toBe(true);
  });
});

describe('Temporal CLI resolution', () => {
  const savedPath = process.env.PATH;
  afterEach(() => {
    process.env.PATH = savedPath;
  });

  it('with no CLI, no cache and no Go, fails with a message listing the ways out', () => {
    const cacheDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-cache-'));
    process.env.PATH = '/nonexistent';
    expect(() => resolveTemporalCli({ cacheDir, log: () => undefined })).toThrow(TemporalCliUnavailableError);
    try {
      resolveTemporalCli({ cacheDir, log: () => undefined });
    } catch (e) {
      const m = (e as Error).message;
      expect(m).toMatch(/TEMPORAL_ADDRESS/);
      expect(m).toMatch(/TEMPORAL_CLI/);
      expect(m).toMatch(/Go/);
      expect(m).toMatch(/docker compose/i);
    }
  });

  it('prefers TEMPORAL_CLI, then PATH, then the cache', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-cli-'));
    const fake = path.join(dir, 'temporal');
    fs.writeFileSync(fake, '#!/bin/sh\n', { mode: 0o755 });
    expect(resolveTemporalCli({ temporalCli: fake, cacheDir: dir, log: () => undefined })).toEqual({
      path: fake,
      source: 'TEMPORAL_CLI',
    });
    process.env.PATH = dir;
    expect(resolveTemporalCli({ cacheDir: '/nonexistent', log: () => undefined })).toEqual({
      path: fake,
      source: 'PATH',
    });
    process.env.PATH = '/nonexistent';
    const cached = cachedCliPath(dir);
    fs.mkdirSync(path.dirname(cached), { recursive: true });
    fs.writeFileSync(cached, '#!/bin/sh\n', { mode: 0o755 });
    expect(resolveTemporalCli({ cacheDir: dir, log: () => undefined })).toEqual({ path: cached, source: 'cache' });
    expect(() =>
      resolveTemporalCli({ temporalCli: path.join(dir, 'missing'), cacheDir: dir, log: () => undefined }),
    ).toThrow(/does not exist/);
  });
});

describe('docker-compose.yml', () => {
  const { spawnSync } = require('node:child_process') as typeof import('node:child_process');
  const hasCompose = spawnSync('docker-compose', ['version'], { encoding: 'utf8' }).status === 0;
  // .ci/run installs Debian's docker-compose; a developer machine without it skips this check.
  const maybe = hasCompose || process.env.CI ? it : it.skip;
  maybe('parses as a Compose file (docker-compose config works without an engine)', () => {
    const root = path.resolve(__dirname, '..', '..');
    const r = spawnSync('docker-compose', ['-f', path.join(root, 'docker-compose.yml'), 'config', '-q'], {
      encoding: 'utf8',
      env: { ...process.env, APP_SECRET: 'x'.repeat(32) },
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
