import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileSdTargets, nginxConfig, prometheusConfig } from '#dev/cluster-config';

/**
 * The configuration `npm run cluster` generates (dev/cluster-config.ts, decision 0262): nginx
 * accepts it (`nginx -t`), Prometheus accepts its config and the alert rules it loads (`promtool
 * check config`), and the edge cache honours the routes' own Cache-Control only. The cluster
 * itself runs in test/platform/cluster.test.ts and `npm run cluster -- --check`.
 */
const ROOT = path.resolve(__dirname, '..', '..');
const NGINX = process.env.NGINX_BIN ?? '/usr/sbin/nginx';
const PROMTOOL = process.env.PROMTOOL_BIN ?? '/usr/bin/promtool';

describe('the cluster configuration', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-cluster-config-'));
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const conf = nginxConfig({
    dir,
    listen: { host: '127.0.0.1', port: 18080 },
    apis: [
      { host: '127.0.0.1', port: 3001 },
      { host: '127.0.0.1', port: 3002, down: true },
    ],
    statusPort: 18081,
  });

  it('nginx accepts the load balancer and edge cache', () => {
    fs.mkdirSync(path.join(dir, 'tmp'), { recursive: true });
    const file = path.join(dir, 'nginx.conf');
    fs.writeFileSync(file, conf);
    const r = spawnSync(NGINX, ['-p', dir, '-c', file, '-e', path.join(dir, 'error.log'), '-t'], { encoding: 'utf8' });
    expect(r.stderr).toContain('test is successful');
    expect(r.status).toBe(0);
  });

  it("caches only what the routes' Cache-Control allows, keyed on the full query, and names the client itself", () => {
    // No proxy_cache_valid: an answer without max-age is never stored by the edge.
    expect(conf).not.toContain('proxy_cache_valid');
    expect(conf).toContain('proxy_cache_key $scheme$http_host$request_uri;');
    expect(conf).toContain('add_header X-Cache-Status $upstream_cache_status always;');
    // Overwritten, not appended: the APIs trust one hop (TRUST_PROXY=1).
    expect(conf).toContain('proxy_set_header X-Forwarded-For $remote_addr;');
    // An API whose /readyz fails is out of rotation.
    expect(conf).toMatch(/server 127\.0\.0\.1:3002 [^;]* down;/);
    expect(conf).not.toMatch(/server 127\.0\.0\.1:3001 [^;]* down;/);
    // nginx's own counters only on the loopback status port, never on the public one.
    expect(conf).toContain('listen 127.0.0.1:18081;');
    expect(conf.indexOf('stub_status;')).toBeGreaterThan(conf.indexOf('listen 127.0.0.1:18081;'));
  });

  it('Prometheus accepts its config, its service-discovery file and the alert rules it loads', () => {
    const file = path.join(dir, 'prometheus.yml');
    // The workers through a file the cluster rewrites as workers come and go (file_sd_configs).
    const workers = path.join(dir, 'workers.json');
    fs.writeFileSync(
      workers,
      fileSdTargets([
        { host: '127.0.0.1', port: 9465 },
        { host: '127.0.0.1', port: 9468 },
      ]),
    );
    expect(JSON.parse(fs.readFileSync(workers, 'utf8'))).toEqual([{ targets: ['127.0.0.1:9465', '127.0.0.1:9468'] }]);
    fs.writeFileSync(
      file,
      prometheusConfig({
        interval: '5s',
        apis: [
          { host: '127.0.0.1', port: 9464 },
          { host: '127.0.0.1', port: 9466 },
        ],
        workers: { file: workers },
        temporal: { host: '127.0.0.1', port: 9467 },
        nginx: { host: '127.0.0.1', port: 9113 },
        ruleFiles: [path.join(ROOT, 'deploy/prometheus/rules.yml')],
      }),
    );
    expect(fs.readFileSync(file, 'utf8')).toContain(`file_sd_configs:\n      - files: [${JSON.stringify(workers)}]`);
    const r = spawnSync(PROMTOOL, ['check', 'config', file], { encoding: 'utf8' });
    expect(`${r.stdout}${r.stderr}`).toContain('is valid prometheus config file syntax');
    expect(r.status).toBe(0);
  });
});
