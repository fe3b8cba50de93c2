import { setTimeout as sleep } from 'node:timers/promises';
import { ConfigError, loadConfig } from '#lib/config';
import { portInUse } from '../postgres-server';
import { freePort } from '../ports';
import type { StartContext } from './context';

/** The configuration, the demo receiver's loopback allowance, and a free PORT. */
export async function readConfiguration(ctx: StartContext): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(2);
    }
    throw err;
  }
  // The demo's webhook receiver listens on loopback, which webhook targets may use only with
  // OUTBOUND_HTTP_ALLOW_LOOPBACK (or its former name WEBHOOK_ALLOW_LOOPBACK; never in production).
  // Outside production npm start turns it on unless it was set to false, which also leaves the
  // receiver out (decision 0176).
  ctx.demoWebhooks =
    config.NODE_ENV !== 'production' &&
    (config.OUTBOUND_HTTP_ALLOW_LOOPBACK ||
      ['OUTBOUND_HTTP_ALLOW_LOOPBACK', 'WEBHOOK_ALLOW_LOOPBACK'].every((name) => !process.env[name]));
  if (ctx.demoWebhooks) config = { ...config, OUTBOUND_HTTP_ALLOW_LOOPBACK: true };
  ctx.config = config;
  if (await portInUse(config.PORT)) {
    console.error(`Port ${config.PORT} (PORT) is already in use: is another npm start running? Stop it or set PORT.`);
    process.exit(1);
  }
}

// A port asked for may still be held for a moment by the processes of a run that just ended
// (its worker closes its metrics listener first, then drains): wait a few seconds for it.
async function freed(port: number): Promise<boolean> {
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await sleep(200))
    if (!(await portInUse(port))) return true;
  return false;
}

/**
 * Prometheus metrics, each process on its own port beside the public one (decision 0258): the
 * API on METRICS_PORT, the worker on the next. Unset, 9464 and 9465 — or free ports when another
 * program holds those (9464 is also OpenTelemetry's exporter default); a port asked for must be free.
 */
export async function chooseMetricsPorts(ctx: StartContext): Promise<void> {
  const asked = ctx.config.METRICS_PORT;
  const metricsPorts = { api: asked ?? 9464, worker: (asked ?? 9464) + 1 };
  for (const side of ['api', 'worker'] as const)
    if (await portInUse(metricsPorts[side])) {
      if (asked === undefined) metricsPorts[side] = await freePort();
      else if (!(await freed(metricsPorts[side]))) {
        console.error(
          `Port ${metricsPorts[side]} (metrics of the ${side}: METRICS_PORT, the worker's the next one) is ` +
            'already in use: is another npm start running? Stop it or set METRICS_PORT.',
        );
        process.exit(1);
      }
    }
  ctx.metricsPorts = metricsPorts;
}

/**
 * The API, the worker and the servers run in their own process groups, so Ctrl-C (and a closed
 * terminal's hang-up) reaches this supervisor alone and it stops them in order: the demo's
 * simulator and receiver, then the API and worker (they drain), then Temporal and PostgreSQL.
 * Sent to every process at once, Ctrl-C took the servers down under a worker still finishing
 * its activities: a screen of connection errors, and now and then a failed exit.
 */
export function stopOnSignals(ctx: StartContext): void {
  for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(sig, () => void ctx.supervisor.stop(0));
}
