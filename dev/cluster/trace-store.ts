import { defaultCacheDir } from '../temporal-server';
import { resolveJaeger, startTraceStore } from '../trace-store';
import type { ClusterContext } from './context';

/**
 * The trace store, before the processes that export to it; stopped after them (their last spans).
 * None when an endpoint is given (the caller's store, OTEL_EXPORTER_OTLP_ENDPOINT) or traces are off.
 */
export async function startTraces(ctx: ClusterContext): Promise<void> {
  const { opts, log } = ctx;
  ctx.otlp = opts.traceStore?.otlpUrl ?? opts.otlpEndpoint ?? process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  ctx.traceQueryUrl = opts.traceStore?.queryUrl ?? null;
  if (ctx.otlp || !(opts.traces ?? true)) return;
  const bin = await resolveJaeger({ cacheDir: defaultCacheDir(process.env.CACHE_DIR), log });
  const store = await startTraceStore({ bin, ownProcessGroup: true });
  ctx.supervisor.children.add(store.child!);
  ctx.supervisor.addStop('the trace store (Jaeger)', store.stop);
  ctx.otlp = store.otlpUrl;
  ctx.traceQueryUrl = store.queryUrl;
  log(`trace store (Jaeger) taking OTLP on ${store.otlpUrl}, queried on ${store.queryUrl}`);
}
