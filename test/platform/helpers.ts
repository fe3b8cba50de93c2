import Fastify, {
  type FastifyInstance,
  type InjectOptions,
  type LightMyRequestResponse,
  type RouteOptions,
} from 'fastify';
import type { Knex } from 'knex';
import type { Harness } from '../helpers/harness';
import { jobfairApp } from '#apps/api/src/app';
import type { Config } from '#lib/config';
import type { ApiRouteConfig } from '#apps/api/src/plugins/route-config';

export interface CollectedRoute {
  method: string;
  url: string;
  config: ApiRouteConfig;
}

export type Reply = LightMyRequestResponse & { json: <T = any>() => T };

/**
 * The real app plugin (`jobfairApp`, the same one `buildApp` registers) on a fresh Fastify
 * instance with buildApp's server options, plus test-only extras: an `onRoute` collector
 * registered before every route, and test routes registered after the app (they get every
 * convention: auth, rate limits, idempotency, OpenAPI, deprecation).
 */
export async function buildTestApp(
  h: Harness,
  opts: {
    routes?: (app: FastifyInstance) => unknown;
    onRoute?: (route: RouteOptions) => void;
    config?: Config;
    knex?: Knex;
  } = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: false,
    bodyLimit: 1024 * 1024,
    trustProxy: (opts.config ?? h.config).TRUST_PROXY as boolean | string,
  });
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  await app.register(jobfairApp, { config: opts.config ?? h.config, knex: opts.knex ?? h.knex, temporal: h.temporal });
  if (opts.routes) {
    await app.register(
      async (child) => {
        await opts.routes!(child);
      },
      { prefix: '/api/v1' },
    );
  }
  await app.ready();
  return app;
}

/** Every route the real app registers, found by an onRoute hook (no hand-kept list). */
export async function collectRoutes(h: Harness): Promise<CollectedRoute[]> {
  const routes: CollectedRoute[] = [];
  const app = await buildTestApp(h, {
    onRoute: (r) => {
      for (const m of [r.method].flat())
        routes.push({ method: String(m), url: r.url, config: (r.config ?? {}) as ApiRouteConfig });
    },
  });
  await app.close();
  return routes;
}

/**
 * The raw protocol, one send, no key added: for the suites that test the conventions themselves
 * (idempotency keys and buckets, rate limits, 503s) on an app of their own. Everything else calls
 * through the harness's `call` or a WebClient, which behave like real clients (retry 503/429).
 */
export async function call(app: FastifyInstance, o: InjectOptions & { token?: string }): Promise<Reply> {
  const { token, headers, ...rest } = o;
  const res = await app.inject({
    ...rest,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(headers ?? {}) },
  });
  return Object.assign(res, { json: <T>() => JSON.parse(res.body) as T });
}

/** `/api/v1/matches/:id/decline` → `/api/v1/matches/<uuid>/decline` */
export function fillParams(url: string, value: () => string): string {
  return url.replace(/:([A-Za-z0-9_]+)/g, () => value()).replace(/\*$/, 'x');
}

export const rateHeaders = (r: { headers: Record<string, unknown> }) => ({
  limit: r.headers['x-ratelimit-limit'],
  remaining: r.headers['x-ratelimit-remaining'],
  reset: r.headers['x-ratelimit-reset'],
});
