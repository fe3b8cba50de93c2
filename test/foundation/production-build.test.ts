import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { Client } from '@temporalio/client';
import { testEnv } from '../helpers/env';
import { eventually } from '../helpers/harness';
import { freePort } from '#dev/ports';
import { connectClosable } from '#lib/temporal-connection';

/**
 * The production image, checked the way this machine can (no Docker engine here): the Dockerfile
 * is multi-stage and runs `node` on compiled output as a non-root user; docker-compose.yml is valid
 * and uses that image; and the compiled output itself (`npm run build:dist`, as the image's build
 * stage runs it) migrates a fresh database under the same migration names as `npm start`, and its
 * API answers /healthz and /readyz and its worker polls Temporal with the prebuilt workflow bundle.
 */
const ROOT = path.resolve(__dirname, '..', '..');

describe('production image', () => {
  const env = testEnv();
  // Inside the repository (git-ignored dist/), as in the image: the compiled code and the workflow
  // bundler resolve their packages from node_modules up the tree.
  const out = path.join(ROOT, 'dist', `test-${randomBytes(4).toString('hex')}`);
  const children: ChildProcess[] = [];
  const dbName = `t_dist_${randomBytes(4).toString('hex')}`;
  const dbUrl = env.adminDbUrl.replace(/\/[^/?]+(\?|$)/, `/${dbName}$1`);
  const taskQueue = `test-dist-${dbName}`;
  const base = {
    ...process.env,
    NODE_ENV: 'production',
    APP_SECRET: 'dist-test-secret-dist-test-secret-0123',
    DATABASE_URL: dbUrl,
    TEMPORAL_ADDRESS: env.temporalAddress,
    TEMPORAL_TASK_QUEUE: taskQueue,
    LOG_LEVEL: 'warn',
  };

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
    await Promise.all(
      children.map((c) => (c.exitCode === null ? new Promise((r) => c.once('exit', r)) : Promise.resolve())),
    );
    const admin = new PgClient({ connectionString: env.adminDbUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS ${dbName} WITH (FORCE)`).finally(() => admin.end());
    fs.rmSync(out, { recursive: true, force: true });
  }, 60_000);

  it('Dockerfile: multi-stage, npm ci from the lock, node on compiled output as a non-root user', () => {
    const dockerfile = fs.readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8');
    expect(dockerfile.match(/^FROM /gm)!.length).toBeGreaterThanOrEqual(2);
    expect(dockerfile).toMatch(/^RUN npm ci /m);
    expect(dockerfile).not.toMatch(/npm install|tsx apps|npx tsx apps/);
    expect(dockerfile).toMatch(/^USER node$/m);
    // The API with a smaller young generation (decision 0231); deploy/api.yaml and compose run the same command.
    expect(dockerfile).toMatch(/^CMD \["node", "--max-semi-space-size=8", "dist\/apps\/api\/src\/server\.js"\]$/m);
  });

  it('docker-compose.yml is valid and runs the image with node', () => {
    const r = spawnSync('docker-compose', ['-f', path.join(ROOT, 'docker-compose.yml'), 'config'], {
      env: { ...process.env, APP_SECRET: 'x'.repeat(32) },
      encoding: 'utf8',
    });
    if (r.error) throw new Error(`docker-compose is needed for this test (.ci/run installs it): ${r.error.message}`);
    expect(r.stderr).not.toMatch(/ERROR/);
    expect(r.status).toBe(0);
    for (const cmd of ['dist/apps/api/src/server.js', 'dist/apps/worker/src/main.js', 'dist/db/cli.js'])
      expect(r.stdout).toContain(cmd);
    // The API as the image's CMD starts it (decision 0231).
    expect(r.stdout).toMatch(/- node\n\s+- --max-semi-space-size=8\n\s+- dist\/apps\/api\/src\/server\.js/);
    expect(r.stdout).not.toContain('tsx');
  });

  it('the compiled output migrates, serves /healthz and /readyz, and its worker polls', async () => {
    const build = spawnSync(process.execPath, ['--import', 'tsx', path.join(ROOT, 'dev/build-dist.ts'), '--out', out], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect({ status: build.status, stderr: build.stderr }).toEqual({ status: 0, stderr: '' });
    expect(fs.existsSync(path.join(out, 'workflow-bundle.js'))).toBe(true);

    const admin = new PgClient({ connectionString: env.adminDbUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${dbName}`).finally(() => admin.end());
    const migrate = spawnSync(process.execPath, [path.join(out, 'db/cli.js'), 'migrate'], {
      env: base,
      encoding: 'utf8',
    });
    expect({ status: migrate.status, stderr: migrate.stderr }).toEqual({ status: 0, stderr: '' });
    // The same names as the .ts sources: a database migrated by `npm start` is up to date here.
    const db = new PgClient({ connectionString: dbUrl });
    await db.connect();
    const names = (await db.query('SELECT name FROM knex_migrations ORDER BY id').finally(() => db.end())).rows.map(
      (r: { name: string }) => r.name,
    );
    expect(names).toEqual(
      fs
        .readdirSync(path.join(ROOT, 'db/migrations'))
        .filter((f) => f.endsWith('.ts'))
        .sort(),
    );

    const port = await freePort();
    const api = spawn(process.execPath, [path.join(out, 'apps/api/src/server.js')], {
      env: { ...base, PORT: String(port), HOST: '127.0.0.1' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    const worker = spawn(process.execPath, [path.join(out, 'apps/worker/src/main.js')], {
      env: base,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    children.push(api, worker);
    await eventually(async () => (await fetch(`http://127.0.0.1:${port}/healthz`)).status === 200, 30_000, 200);
    await eventually(async () => (await fetch(`http://127.0.0.1:${port}/readyz`)).status === 200, 30_000, 200);
    const conn = await connectClosable({ address: env.temporalAddress });
    try {
      const client = new Client({ connection: conn.connection });
      await eventually(
        async () =>
          ((
            await client.workflowService.describeTaskQueue({
              namespace: 'default',
              taskQueue: { name: taskQueue },
              taskQueueType: 1,
            })
          ).pollers?.length ?? 0) > 0,
        60_000,
        250,
      );
    } finally {
      await conn.close();
    }
  }, 400_000);
});
