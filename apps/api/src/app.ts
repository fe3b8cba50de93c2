import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
} from 'fastify';
import fp from 'fastify-plugin';
import type { Knex } from 'knex';
import type { Client } from '@temporalio/client';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { appSecret, type Config } from '#lib/config';
import { createPaginator, type Paginator } from './plugins/pagination';
import { createLogger, loggableUrl, requestSerializer, requestLogLevel } from '#lib/logger';
import knexPlugin from './plugins/knex';
import temporalPlugin from './plugins/temporal';
import metricsPlugin from './plugins/metrics';
import tracingPlugin from './plugins/tracing';
import errorsPlugin from './plugins/errors';
import inputSanitationPlugin, {
  clientErrorHandler,
  frameworkErrors,
  MAX_PARAM_LENGTH,
} from './plugins/input-sanitation';
import openapiPlugin, { API_PREFIX } from './plugins/openapi';
import authPlugin from './plugins/auth';
import idempotencyPlugin from './plugins/idempotency';
import rateLimitPlugin from './plugins/rate-limit';
import deprecationPlugin from './plugins/deprecation';
import healthRoutes from './platform/health-routes';
import oauthResourceRoutes from './accounts/oauth-resource-routes';
import oauthRoutes from './accounts/oauth-routes';
import mcpPlugin from './platform/mcp/mcp-routes';
import docsRoutes from './platform/docs-routes';
import apiV1 from './routes';
import webApp from './web';
import stripeWebhookRoutes from './billing/stripe-webhook-routes';
import liveKitWebhookRoutes from './room/livekit-webhook-routes';
// After the routes: zod registers the OpenAPI component schemas in module-load order, and the
// document (and its ETag) stays the same when the routes' modules load first.
import servicesPlugin from './plugins/services';
import './plugins/route-config';

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    /** Server master key (APP_SECRET, or the development key under DATA_DIR). */
    appSecret: string;
    paginator: Paginator;
  }
}

export interface AppOptions {
  config: Config;
  /** Tests may hand in shared connections; otherwise the plugins open (and close) their own. */
  knex?: Knex;
  temporal?: Client;
}

/**
 * The whole service as one plugin. Load order is the architecture: external resources
 * (knex, Temporal), the services built once over them (`app.services`), then the platform conventions (errors, OpenAPI, auth, idempotency,
 * rate limits, deprecation), then the routes.
 */
export const jobfairApp = fp<AppOptions>(
  async (app, opts) => {
    app.decorate('config', opts.config);
    app.decorate('appSecret', appSecret(opts.config));
    app.decorate('paginator', createPaginator(app.appSecret));
    app.setValidatorCompiler(validatorCompiler);
    app.setSerializerCompiler(serializerCompiler);
    await app.register(knexPlugin, { config: opts.config, knex: opts.knex });
    await app.register(temporalPlugin, { config: opts.config, temporal: opts.temporal });
    await app.register(metricsPlugin, { config: opts.config });
    await app.register(tracingPlugin);
    await app.register(servicesPlugin);
    await app.register(errorsPlugin);
    await app.register(inputSanitationPlugin);
    await app.register(openapiPlugin, { config: opts.config });
    await app.register(authPlugin, { config: opts.config });
    await app.register(idempotencyPlugin);
    await app.register(rateLimitPlugin, { config: opts.config });
    await app.register(deprecationPlugin);
    await app.register(healthRoutes);
    await app.register(oauthResourceRoutes);
    await app.register(oauthRoutes);
    // Before the routes: its onRoute hook turns every /api/v1 operation into an MCP tool.
    await app.register(mcpPlugin);
    await app.register(apiV1, { prefix: API_PREFIX });
    await app.register(stripeWebhookRoutes);
    await app.register(liveKitWebhookRoutes);
    await app.register(docsRoutes);
    await app.register(webApp);
  },
  { name: 'jobfair-app' },
);

/** One line per request, after it, at a level by what it is (requestLogLevel): no "incoming request" line. */
class RequestLog extends LogController {
  override incomingRequest(): void {}
  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    const ms = Math.round(reply.elapsedTime);
    request.log[requestLogLevel(request.method, request.url, reply.statusCode)](
      { status: reply.statusCode, ms, ...(error ? { err: error } : {}) },
      `${request.method} ${loggableUrl(request.url)} ${reply.statusCode} ${ms} ms`,
    );
  }
}

export async function buildApp(opts: AppOptions & { logger?: boolean }): Promise<FastifyInstance> {
  const app = Fastify({
    ...(opts.logger === false
      ? { logger: false }
      : {
          loggerInstance: createLogger(opts.config, 'api', {
            serializers: { req: requestSerializer },
          }) as FastifyBaseLogger,
        }),
    logController: new RequestLog(),
    bodyLimit: 1024 * 1024,
    // Never `true` by default: a client could then pick its own IP (per-IP limits) and scheme.
    trustProxy: opts.config.TRUST_PROXY as boolean | string, // a hop count (number) is accepted at run time too
    ajv: undefined,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
    clientErrorHandler,
  });
  await app.register(jobfairApp, opts);
  await app.ready();
  return app;
}
