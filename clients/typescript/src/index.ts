import { randomUUID } from 'node:crypto';
import createClient, { type Client, type Middleware } from 'openapi-fetch';
import type { paths, webhooks } from './openapi';

export type { paths, components, operations, webhooks } from './openapi';

/** The event types a delivery may carry (the OpenAPI document's `webhooks` section). */
export type WebhookEventType = keyof webhooks & string;
/** The delivered body of one event type, e.g. `WebhookEvent<'match.accepted'>['data']['recruiter_user_id']`. */
export type WebhookEvent<T extends WebhookEventType = WebhookEventType> = T extends WebhookEventType
  ? NonNullable<webhooks[T]['post']>['requestBody'] extends { content: { 'application/json': infer B } } | undefined
    ? B
    : never
  : never;
export { verifyWebhook, WebhookVerificationError, type VerifyWebhookOptions, type VerifiedWebhook } from './webhooks';

export interface RateLimitInfo {
  limit: number;
  remaining: number;
  /** Unix seconds when the bucket is full again. */
  reset: number;
}

export interface JobfairClientOptions {
  /** e.g. `https://jobfair.example` (the client adds nothing: paths start with `/api/v1`). */
  baseUrl: string;
  /** `svc_…` personal access token; omit for the public discovery routes. */
  token?: string;
  /** Sent as `X-Agent-Identity`: `<vendor>/<product> (<contact>)`. */
  agentIdentity?: string;
  /** How often a 429, 503 or 409 IDEMPOTENCY_KEY_IN_USE is retried after its Retry-After (default 3). */
  maxRetries?: number;
  /** Longest Retry-After the client waits; longer ones are returned to the caller (default 60 s). */
  maxRetryAfterSeconds?: number;
  /** Idempotency keys for POST/PATCH/PUT/DELETE without one (default: random UUID v4). */
  idempotencyKey?: () => string;
  /** Deprecation/Sunset warnings and retries (default: console). */
  logger?: Pick<Console, 'warn' | 'info'>;
  /** Called with the rate-limit headers of every answer that has them. */
  onRateLimit?: (info: RateLimitInfo, request: { method: string; path: string }) => void;
  fetch?: typeof fetch;
}

export type JobfairApi = Client<paths>;

type GetPaths = { [P in keyof paths]: paths[P] extends { get: unknown } ? P : never }[keyof paths];
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : never;
type GetOk<P extends GetPaths> = paths[P] extends { get: { responses: { 200: infer R } } } ? JsonOf<R> : never;
/** The GET paths whose answer is a page: `{ data: […], next_cursor?, has_more }`. */
export type PaginatedPath = {
  [P in GetPaths]: GetOk<P> extends { data: unknown[]; has_more: boolean } ? P : never;
}[GetPaths];
export type PageItem<P extends PaginatedPath> = GetOk<P> extends { data: Array<infer I> } ? I : never;
type GetInit<P extends GetPaths> = paths[P] extends { get: { parameters: infer Params } } ? Params : never;

const MUTATING = new Set(['POST', 'PATCH', 'PUT', 'DELETE']);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class JobfairApiError extends Error {
  override name = 'JobfairApiError';
  constructor(
    public readonly status: number,
    public readonly code: string,
    message: string,
    public readonly details?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/**
 * The conventions as openapi-fetch middleware: auth and agent identity; an Idempotency-Key on every
 * mutating call (yours wins when you set one), kept across the client's own retries so a retried
 * POST never acts twice; Retry-After honoured on 429, 503 and 409 IDEMPOTENCY_KEY_IN_USE; the
 * rate-limit headers reported; Deprecation/Sunset logged once per operation.
 */
export function jobfairMiddleware(opts: JobfairClientOptions): Middleware {
  const log = opts.logger ?? console;
  const maxRetries = opts.maxRetries ?? 3;
  const maxWait = opts.maxRetryAfterSeconds ?? 60;
  const doFetch = opts.fetch ?? globalThis.fetch;
  const replayable = new Map<string, Request>();
  const warned = new Set<string>();
  return {
    onRequest({ request, id }) {
      if (opts.token && !request.headers.has('authorization'))
        request.headers.set('authorization', `Bearer ${opts.token}`);
      if (opts.agentIdentity && !request.headers.has('x-agent-identity'))
        request.headers.set('x-agent-identity', opts.agentIdentity);
      if (MUTATING.has(request.method) && !request.headers.has('idempotency-key'))
        request.headers.set('idempotency-key', (opts.idempotencyKey ?? randomUUID)());
      replayable.set(id, request.clone());
      return request;
    },
    async onResponse({ request, response, id, schemaPath }) {
      let res = response;
      try {
        for (let attempt = 1; ; attempt++) {
          const retryAfter = Number(res.headers.get('retry-after'));
          const retryable =
            res.status === 429 || res.status === 503 || (res.status === 409 && res.headers.has('retry-after'));
          if (!retryable || !Number.isFinite(retryAfter) || retryAfter > maxWait || attempt > maxRetries) break;
          log.info(
            `jobfair: ${request.method} ${schemaPath} answered ${res.status}; retrying in ${retryAfter} s (attempt ${attempt} of ${maxRetries})`,
          );
          await sleep(retryAfter * 1000);
          res = await doFetch(replayable.get(id)!.clone());
        }
      } finally {
        replayable.delete(id);
      }
      const limit = res.headers.get('x-ratelimit-limit');
      if (limit && opts.onRateLimit) {
        opts.onRateLimit(
          {
            limit: Number(limit),
            remaining: Number(res.headers.get('x-ratelimit-remaining')),
            reset: Number(res.headers.get('x-ratelimit-reset')),
          },
          { method: request.method, path: schemaPath },
        );
      }
      const deprecation = res.headers.get('deprecation');
      if (deprecation && !warned.has(`${request.method} ${schemaPath}`)) {
        warned.add(`${request.method} ${schemaPath}`);
        const sunset = res.headers.get('sunset');
        const link = res.headers.get('link');
        log.warn(
          `jobfair: ${request.method} ${schemaPath} is deprecated (Deprecation: ${deprecation}${sunset ? `; removed after ${sunset}` : ''}${link ? `; ${link}` : ''})`,
        );
      }
      return res;
    },
  };
}

/** The typed client: `client.api.GET('/api/v1/jobs/search', …)` plus `paginate()`. */
export function createJobfairClient(opts: JobfairClientOptions) {
  const api = createClient<paths>({ baseUrl: opts.baseUrl.replace(/\/+$/, ''), fetch: opts.fetch });
  api.use(jobfairMiddleware(opts));

  /** Unwraps `{ data, error, response }`: the data, or a JobfairApiError with the envelope's code. */
  function must<T>(r: { data?: T; error?: unknown; response: Response }): T {
    if (r.error !== undefined || r.data === undefined) {
      const e = (r.error ?? {}) as { error?: string; code?: string; details?: Record<string, unknown> };
      throw new JobfairApiError(
        r.response.status,
        e.code ?? 'UNKNOWN',
        e.error ?? `HTTP ${r.response.status}`,
        e.details,
      );
    }
    return r.data;
  }

  /** Every item of a paginated GET, following `next_cursor` until `has_more` is false. */
  async function* paginate<P extends PaginatedPath>(path: P, params?: GetInit<P>): AsyncGenerator<PageItem<P>> {
    let cursor: string | undefined;
    for (;;) {
      const base = (params ?? {}) as { query?: Record<string, unknown> };
      const init = { params: { ...base, query: { ...(base.query ?? {}), ...(cursor ? { cursor } : {}) } } };
      const page = must(
        await (api.GET as (p: string, i: unknown) => Promise<{ data?: unknown; error?: unknown; response: Response }>)(
          path,
          init,
        ),
      ) as { data: Array<PageItem<P>>; next_cursor?: string; has_more: boolean };
      for (const item of page.data) yield item;
      if (!page.has_more || !page.next_cursor) return;
      cursor = page.next_cursor;
    }
  }

  return { api, paginate, must };
}
export type JobfairClient = ReturnType<typeof createJobfairClient>;
