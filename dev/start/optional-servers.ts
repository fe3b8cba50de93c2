import { randomBytes } from 'node:crypto';
import { portInUse } from '../postgres-server';
import { defaultCacheDir } from '../temporal-server';
import { startTurnServer } from '../turn-server';
import { resolveLiveKitServer, startLiveKitServer } from '../livekit-server';
import { resolveJaeger, startTraceStore } from '../trace-store';
import { log, type StartContext } from './context';

/** Starts an optional server asked for by `flag`; a failure stops everything (exit 1). */
async function optional(ctx: StartContext, flag: string, start: () => Promise<void>): Promise<void> {
  if (!process.argv.includes(flag)) return;
  try {
    await start();
  } catch (err) {
    console.error(`[start] ${flag}: ${(err as Error).message}`);
    return ctx.supervisor.stop(1);
  }
}

/** --turn: coturn on loopback with a fresh shared secret (or ROOM_TURN_SECRET), stopped with the rest. */
export const startTurn = (ctx: StartContext) =>
  optional(ctx, '--turn', async () => {
    const secret = ctx.config.ROOM_TURN_SECRET ?? randomBytes(24).toString('hex');
    const turn = await startTurnServer({ secret });
    ctx.supervisor.beforeStop.push(turn.stop);
    Object.assign(ctx.serverEnv, { ROOM_TURN_URLS: turn.urls.join(','), ROOM_TURN_SECRET: secret });
    log(`TURN (coturn) on 127.0.0.1:${turn.port} for the interview room (--turn)`);
  });

/** --livekit: a LiveKit server on loopback (dev mode, a fresh key pair), webhooks to this API. */
export const startLiveKit = (ctx: StartContext) =>
  optional(ctx, '--livekit', async () => {
    const bin = await resolveLiveKitServer({ cacheDir: defaultCacheDir(ctx.config.CACHE_DIR), log });
    const lk = await startLiveKitServer({ bin, webhookUrl: `http://127.0.0.1:${ctx.config.PORT}/livekit/webhook` });
    ctx.supervisor.beforeStop.push(lk.stop);
    Object.assign(ctx.serverEnv, {
      VIDEO_PROVIDER: 'livekit',
      LIVEKIT_URL: lk.url,
      LIVEKIT_API_KEY: lk.apiKey,
      LIVEKIT_API_SECRET: lk.apiSecret,
    });
    log(`LiveKit server on ${lk.url} as the interview room engine (--livekit)`);
  });

/** --traces: the trace store (Jaeger, in memory) on loopback, both processes exporting to it (decision 0263). */
export const startTraces = (ctx: StartContext) =>
  optional(ctx, '--traces', async () => {
    const bin = await resolveJaeger({ cacheDir: defaultCacheDir(ctx.config.CACHE_DIR), log });
    // Jaeger's usual ports when free (16686 is where people look), any free ones otherwise.
    const store = await startTraceStore({
      bin,
      otlpPort: (await portInUse(4318)) ? undefined : 4318,
      queryPort: (await portInUse(16686)) ? undefined : 16686,
    });
    ctx.supervisor.beforeStop.push(store.stop);
    ctx.serverEnv.OTEL_EXPORTER_OTLP_ENDPOINT = store.otlpUrl;
    ctx.traceQueryUrl = store.queryUrl;
    log(`trace store (Jaeger) taking OTLP on ${store.otlpUrl}, queried on ${store.queryUrl} (--traces)`);
  });
