import { randomBytes } from 'node:crypto';
import { cachedGoBinaryPath, goInstallCached, GoBinaryUnavailableError, onPath } from './go-install';
import { startConfiguredServer } from './configured-server';
import { freePort } from './ports';

/**
 * The LiveKit server (an SFU: VIDEO_PROVIDER=livekit) for tests and `npm start -- --livekit`,
 * built once per machine with `go install` into the cache like the Temporal CLI. v1.13.5 is the
 * newest v1.13 whose go.mod has no `replace` directives (later ones point pion at LiveKit's forks,
 * which `go install pkg@version` refuses); it builds with Go 1.26.
 */
export const LIVEKIT_SERVER_MODULE = 'github.com/livekit/livekit-server/cmd/server';
export const LIVEKIT_SERVER_VERSION = 'v1.13.5';
const SPEC = {
  module: LIVEKIT_SERVER_MODULE,
  version: LIVEKIT_SERVER_VERSION,
  tool: 'livekit-server',
  binary: 'server',
  minGo: [1, 26] as [number, number],
  expect: 'about 6 min on 2 cores',
  packages: 900,
};

export function cachedLiveKitServerPath(cacheDir: string): string {
  return cachedGoBinaryPath(cacheDir, SPEC.tool, SPEC.version, SPEC.binary);
}

/** LIVEKIT_SERVER_BIN, `livekit-server` on PATH, the cached build, or `go install` into the cache. */
export async function resolveLiveKitServer(opts: { cacheDir: string; log: (l: string) => void }): Promise<string> {
  const explicit = process.env.LIVEKIT_SERVER_BIN;
  if (explicit) return explicit;
  const fromPath = onPath('livekit-server');
  if (fromPath) return fromPath;
  try {
    return (await goInstallCached(SPEC, opts)).path;
  } catch (e) {
    if (e instanceof GoBinaryUnavailableError) {
      throw new Error(
        `the LiveKit server is unavailable: ${e.reason}. Install Go >= 1.26 and rerun (we build ` +
          `${LIVEKIT_SERVER_MODULE}@${LIVEKIT_SERVER_VERSION} once into the cache), or set LIVEKIT_SERVER_BIN`,
      );
    }
    throw e;
  }
}

export interface RunningLiveKitServer {
  /** ws://127.0.0.1:<port>: LIVEKIT_URL. */
  url: string;
  port: number;
  apiKey: string;
  apiSecret: string;
  stop: () => Promise<void>;
  /** What the server printed (for a failing test's message). */
  output: () => string;
}

/**
 * Starts the LiveKit server in development mode on loopback: its own HTTP/WebSocket, TCP and UDP
 * ports, media on 127.0.0.1 only (`node_ip`, loopback candidates, no external IP discovery, no
 * STUN to the internet), a generated key pair (or the given one), rooms only as our API creates
 * them (`auto_create: false`: a token for a room that was never created is refused), and webhooks
 * to `webhookUrl` (our API's POST /livekit/webhook). The configuration is a YAML file in a
 * temporary directory, removed when stopped.
 */
export async function startLiveKitServer(opts: {
  bin: string;
  webhookUrl?: string;
  port?: number;
  apiKey?: string;
  apiSecret?: string;
}): Promise<RunningLiveKitServer> {
  const port = opts.port ?? (await freePort());
  const tcpPort = await freePort();
  const udpPort = await freePort();
  const apiKey = opts.apiKey ?? `APIdev${randomBytes(6).toString('hex')}`;
  const apiSecret = opts.apiSecret ?? randomBytes(32).toString('base64url');
  const yaml = [
    `port: ${port}`,
    'bind_addresses: ["127.0.0.1"]',
    'rtc:',
    `  tcp_port: ${tcpPort}`,
    `  udp_port: ${udpPort}`,
    '  node_ip: 127.0.0.1',
    '  use_external_ip: false',
    '  enable_loopback_candidate: true',
    '  stun_servers: []',
    'keys:',
    `  ${apiKey}: ${apiSecret}`,
    'room:',
    '  auto_create: false',
    'logging:',
    '  level: info',
    ...(opts.webhookUrl ? ['webhook:', `  api_key: ${apiKey}`, '  urls:', `    - ${opts.webhookUrl}`] : []),
    '',
  ].join('\n');
  const httpUrl = `http://127.0.0.1:${port}`;
  const server = await startConfiguredServer({
    name: 'livekit',
    bin: opts.bin,
    args: (configFile) => ['--dev', '--config', configFile],
    yaml,
    timeoutMs: 20_000,
    // The root path answers "OK" once the server is up.
    ready: async () => (await fetch(httpUrl, { signal: AbortSignal.timeout(1000) })).ok,
  });
  return { url: `ws://127.0.0.1:${port}`, port, apiKey, apiSecret, ...server };
}
