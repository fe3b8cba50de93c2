import { spawn } from 'node:child_process';
import { goInstallCached, GoBinaryUnavailableError, onPath } from './go-install';
import { freePort } from './ports';
import { stopProcess } from '#lib/supervision';

/**
 * stripe-mock speaks the API of the pinned `stripe` SDK (23.1.0 = API 2026-10-28: e.g. Checkout's
 * `ui_mode: embedded_page | hosted_page`). Keep the two in step: a newer SDK needs a newer mock.
 */
export const STRIPE_MOCK_MODULE = 'github.com/stripe/stripe-mock';
export const STRIPE_MOCK_VERSION = 'v0.203.0';

export interface RunningStripeMock {
  /** http://127.0.0.1:<port>: what STRIPE_API_BASE points at. */
  url: string;
  stop: () => Promise<void>;
}

/** STRIPE_MOCK_BIN, `stripe-mock` on PATH, the cached build, or `go install` into the cache (the Temporal CLI's code path). */
export async function resolveStripeMock(opts: { cacheDir: string; log: (l: string) => void }): Promise<string> {
  const explicit = process.env.STRIPE_MOCK_BIN;
  if (explicit) return explicit;
  const fromPath = onPath('stripe-mock');
  if (fromPath) return fromPath;
  try {
    return (
      await goInstallCached(
        {
          module: STRIPE_MOCK_MODULE,
          version: STRIPE_MOCK_VERSION,
          tool: 'stripe-mock',
          binary: 'stripe-mock',
          minGo: [1, 21],
          expect: 'about 15 s',
        },
        opts,
      )
    ).path;
  } catch (e) {
    if (e instanceof GoBinaryUnavailableError) {
      throw new Error(
        `stripe-mock is unavailable: ${e.reason}. Install Go and rerun (we build ` +
          `${STRIPE_MOCK_MODULE}@${STRIPE_MOCK_VERSION} once into the cache), or set STRIPE_MOCK_BIN ` +
          `to a stripe-mock binary`,
      );
    }
    throw e;
  }
}

/** Starts stripe-mock on a free loopback port (HTTP only) and waits until it answers. */
export async function startStripeMock(bin: string): Promise<RunningStripeMock> {
  const port = await freePort();
  const httpsPort = await freePort();
  const child = spawn(bin, ['-http-port', String(port), '-https-port', String(httpsPort)], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  let exited = false;
  child.stdout?.on('data', (d) => (output += d));
  child.stderr?.on('data', (d) => (output += d));
  child.once('exit', () => (exited = true));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 20_000;
  for (;;) {
    if (exited) throw new Error(`stripe-mock exited during start-up:\n${output.slice(-2000)}`);
    try {
      // Any answer (401 without a key) means it is listening.
      await fetch(`${url}/v1/customers`, { signal: AbortSignal.timeout(1000) });
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        throw new Error(`stripe-mock did not answer within 20 s:\n${output.slice(-2000)}`);
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    stop: () => stopProcess(child, 'SIGTERM', 5000),
  };
}
