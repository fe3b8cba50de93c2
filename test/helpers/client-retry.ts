import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';

/**
 * What a well-behaved client does with "not now" answers, for the test fixtures that call the API:
 * a 503 (a dependency down, the process shutting down) or a 429 (rate limited) is retried after its
 * Retry-After, a few times within a total time, with the same Idempotency-Key — so a loaded machine
 * slows a test down instead of failing it. Every mutating request gets a key when the caller gave
 * none, so its retry cannot run the effect twice. Tests of the 503/429 themselves opt out
 * (`retry: false`); tests of the automatic cost buckets (which apply only without a key) send
 * `idempotencyKey: false`.
 */
export interface ClientRetryOptions {
  /** false: the first answer is the answer (tests that assert a 503 or 429). */
  retry?: boolean;
  /** false: send no Idempotency-Key unless the caller's headers carry one. */
  idempotencyKey?: boolean;
}

export const RETRY_STATUSES = new Set([429, 503]);
/** At most this many sends of one request, */
const MAX_ATTEMPTS = 5;
/** and no more than this in waits between them (the requests' own time is not counted: a slow answer
 * under load must not use up the retries). */
const MAX_WAIT_MS = 30_000;
/** When the answer names no Retry-After. */
const DEFAULT_WAIT_MS = 1_000;

const MUTATING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

export const isMutating = (method: string | undefined) => MUTATING.has((method ?? 'GET').toUpperCase());

/** Retry-After in milliseconds (seconds or an HTTP date), or the default. */
export function retryAfterMs(header: string | string[] | number | undefined, now = Date.now()): number {
  const v = Array.isArray(header) ? header[0] : header;
  if (v === undefined || v === '') return DEFAULT_WAIT_MS;
  const seconds = Number(v);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const at = Date.parse(String(v));
  return Number.isNaN(at) ? DEFAULT_WAIT_MS : Math.max(0, at - now);
}

/** The headers with an Idempotency-Key added to a mutating request that has none (unless opted out). */
export function withIdempotencyKey(
  method: string | undefined,
  headers: Record<string, unknown>,
  opts: ClientRetryOptions = {},
): Record<string, unknown> {
  if (opts.idempotencyKey === false || !isMutating(method)) return headers;
  if (Object.keys(headers).some((k) => k.toLowerCase() === 'idempotency-key')) return headers;
  return { ...headers, 'idempotency-key': randomUUID() };
}

/**
 * Sends `send()` until its answer is not a 503/429, the attempts are spent, or the waits would add
 * up to more than MAX_WAIT_MS; then returns the last answer. `send` must re-send the same request
 * (same headers, so the same Idempotency-Key).
 */
export async function sendWithRetry<R extends { statusCode: number; headers: Record<string, unknown> }>(
  send: () => Promise<R>,
  opts: ClientRetryOptions & { signal?: AbortSignal } = {},
): Promise<R> {
  let waited = 0;
  for (let attempt = 1; ; attempt++) {
    const res = await send();
    if (opts.retry === false || !RETRY_STATUSES.has(res.statusCode) || attempt >= MAX_ATTEMPTS) return res;
    const wait = retryAfterMs(res.headers['retry-after'] as string | undefined);
    if (waited + wait > MAX_WAIT_MS || opts.signal?.aborted) return res;
    waited += wait;
    await sleep(wait, undefined, opts.signal ? { signal: opts.signal } : undefined).catch(() => undefined);
    if (opts.signal?.aborted) return res;
  }
}
