/**
 * The generated configuration of `npm run cluster` (decision 0262): the load balancer and edge cache
 * (nginx) and Prometheus. Pure functions of the ports and folders, so their shape is readable and
 * tested without starting anything.
 */
import path from 'node:path';

export interface Endpoint {
  host: string;
  port: number;
}

export interface NginxInput {
  /** The folder nginx runs in (its pid, logs, temp files and cache live here). */
  dir: string;
  /** Where the load balancer listens. */
  listen: Endpoint;
  /** Every API process; `down` ones are left out of rotation (their /readyz failed). */
  apis: Array<Endpoint & { down?: boolean }>;
  /** Longest life of a cached answer nobody asked for again (bounds stale-if-error). */
  cacheInactive?: string;
  /** nginx's own counters (`stub_status`) on a loopback port apart from the public one, for its exporter. */
  statusPort?: number;
}

/**
 * nginx as load balancer and edge cache:
 * - round robin over the APIs, keep-alive connections to them; WebSocket upgrades passed through;
 *   a failed connection is retried on the next API (`proxy_next_upstream error timeout`; nginx never
 *   resends a request that reached an API unless its method is idempotent), and an API that failed
 *   (`max_fails=1`) sits out `fail_timeout`: the passive checks of the open-source nginx;
 * - the active check on `/readyz` is the supervisor's (dev/cluster.ts): an API that is not ready is
 *   marked `down` here and nginx reloaded, gracefully;
 * - the cache honours only the routes' own `Cache-Control` (no `proxy_cache_valid`: an answer without
 *   max-age is never stored), its `stale-while-revalidate` (refreshed in the background) and
 *   `stale-if-error`; an answer is also served stale when every API fails, until `inactive`
 *   drops it. Keyed on the full request URI (path and query as sent), not on who asks: only
 *   answers marked `public` are the same for everyone, and private ones carry no max-age.
 *   `X-Cache-Status` says HIT, MISS, EXPIRED, STALE, UPDATING or REVALIDATED.
 * - the client's address is the connection's (`X-Forwarded-For` overwritten, never appended: the
 *   APIs trust one hop, so a client cannot choose its rate-limit bucket).
 */
export function nginxConfig(p: NginxInput): string {
  const d = (f: string) => path.join(p.dir, f);
  const servers = p.apis.map(
    (a) => `    server ${a.host}:${a.port} max_fails=1 fail_timeout=5s${a.down ? ' down' : ''};`,
  );
  return [
    'worker_processes 1;',
    `pid ${d('nginx.pid')};`,
    `error_log ${d('error.log')} warn;`,
    'events { worker_connections 1024; }',
    'http {',
    '  log_format edge \'$remote_addr [$time_iso8601] "$request" $status $body_bytes_sent \'',
    "                  'cache=$upstream_cache_status upstream=$upstream_addr $request_time';",
    `  access_log ${d('access.log')} edge;`,
    `  client_body_temp_path ${d('tmp/body')};`,
    `  proxy_temp_path ${d('tmp/proxy')};`,
    `  fastcgi_temp_path ${d('tmp/fastcgi')};`,
    `  uwsgi_temp_path ${d('tmp/uwsgi')};`,
    `  scgi_temp_path ${d('tmp/scgi')};`,
    '  client_max_body_size 2m;',
    `  proxy_cache_path ${d('cache')} levels=1:2 keys_zone=edge:10m max_size=256m inactive=${p.cacheInactive ?? '25h'} use_temp_path=off;`,
    '  map $http_upgrade $connection_upgrade { default upgrade; "" ""; }',
    '  upstream api {',
    ...servers,
    '    keepalive 32;',
    '  }',
    '  server {',
    `    listen ${p.listen.host}:${p.listen.port};`,
    '    location / {',
    '      proxy_pass http://api;',
    '      proxy_http_version 1.1;',
    '      proxy_set_header Host $http_host;',
    '      proxy_set_header Upgrade $http_upgrade;',
    '      proxy_set_header Connection $connection_upgrade;',
    '      proxy_set_header X-Forwarded-For $remote_addr;',
    '      proxy_set_header X-Forwarded-Proto $scheme;',
    '      proxy_read_timeout 120s;',
    '      proxy_connect_timeout 2s;',
    '      proxy_next_upstream error timeout;',
    '      proxy_next_upstream_tries 2;',
    '      proxy_cache edge;',
    '      proxy_cache_key $scheme$http_host$request_uri;',
    '      proxy_cache_methods GET HEAD;',
    '      proxy_cache_lock on;',
    '      proxy_cache_background_update on;',
    '      proxy_cache_revalidate on;',
    '      proxy_cache_use_stale error timeout updating http_502 http_503 http_504;',
    '      add_header X-Cache-Status $upstream_cache_status always;',
    '    }',
    '  }',
    ...(p.statusPort
      ? [
          '  server {',
          `    listen 127.0.0.1:${p.statusPort};`,
          '    access_log off;',
          '    location = /stub_status { stub_status; }',
          '  }',
        ]
      : []),
    '}',
    '',
  ].join('\n');
}

/**
 * A job's targets: fixed (`static_configs`), or a file of Prometheus's file-based service discovery
 * (`file_sd_configs`) that the supervisor rewrites as processes come and go (a rolling deploy's new
 * workers, the old ones retired); Prometheus reads it again on every change.
 */
export type Targets = Endpoint[] | { file: string };

export interface PrometheusInput {
  /** Scrape and rule evaluation interval, e.g. "5s". */
  interval: string;
  apis: Targets;
  workers: Targets;
  /** The Temporal server's own metrics. */
  temporal: Endpoint | null;
  /** The load balancer's exporter (prometheus-nginx-exporter over nginx's stub_status). */
  nginx?: Endpoint | null;
  /** The alert rules (deploy/prometheus/rules.yml). */
  ruleFiles: string[];
}

/** The content of a `file_sd_configs` file: one target group, `host:port` each. */
export function fileSdTargets(targets: Endpoint[]): string {
  return `${JSON.stringify([{ targets: targets.map((t) => `${t.host}:${t.port}`) }], null, 2)}\n`;
}

/** Prometheus: every process of the cluster, one job per kind, the repository's alert rules loaded. */
export function prometheusConfig(p: PrometheusInput): string {
  const job = (name: string, targets: Targets) => [
    `  - job_name: ${JSON.stringify(name)}`,
    ...(Array.isArray(targets)
      ? [
          '    static_configs:',
          `      - targets: [${targets.map((t) => JSON.stringify(`${t.host}:${t.port}`)).join(', ')}]`,
        ]
      : [
          '    file_sd_configs:',
          `      - files: [${JSON.stringify(targets.file)}]`,
          // Changes are seen at once (inotify); the re-read is a fallback.
          '        refresh_interval: 30s',
        ]),
  ];
  return [
    'global:',
    `  scrape_interval: ${p.interval}`,
    `  evaluation_interval: ${p.interval}`,
    'rule_files:',
    ...p.ruleFiles.map((f) => `  - ${JSON.stringify(f)}`),
    'scrape_configs:',
    ...job('jobfair-api', p.apis),
    ...job('jobfair-worker', p.workers),
    ...(p.temporal ? job('temporal', [p.temporal]) : []),
    ...(p.nginx ? job('nginx', [p.nginx]) : []),
    '',
  ].join('\n');
}
