import { createHmac, timingSafeEqual } from 'node:crypto';

export interface VerifyWebhookOptions {
  /** The raw request body exactly as received (never re-serialised JSON). */
  payload: string | Buffer;
  /** The request headers (any case). */
  headers: Record<string, string | string[] | undefined>;
  /** Your `svc_whsec_…` secret; pass two while you rotate. */
  secret: string | readonly string[];
  /** Accepted clock skew either way, in seconds (default 300). */
  toleranceSeconds?: number;
  /** For tests: the current Unix time in seconds. */
  nowSeconds?: number;
}

export interface VerifiedWebhook<T = { id: string; type: string; created_at: number; data: Record<string, unknown> }> {
  event: T;
  /** Which signature was checked: `Svc-Signature` (Stripe's scheme) or Standard Webhooks. */
  scheme: 'svc-signature' | 'standard-webhooks';
}

export class WebhookVerificationError extends Error {
  override name = 'WebhookVerificationError';
}

const header = (h: VerifyWebhookOptions['headers'], name: string): string | undefined => {
  for (const [k, v] of Object.entries(h)) if (k.toLowerCase() === name) return Array.isArray(v) ? v.join(',') : v;
  return undefined;
};

const equal = (a: Buffer, b: Buffer) => a.length === b.length && timingSafeEqual(a, b);

/**
 * Verifies a Job Fair delivery with either scheme it carries (both are signed with the same
 * secret): `Svc-Signature: t=<t>,v1=<hex>` = HMAC-SHA256(secret, `<t>.<body>`), or the Standard
 * Webhooks headers `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>` =
 * HMAC-SHA256(secret, `<id>.<t>.<body>`). Throws WebhookVerificationError; returns the event.
 */
export function verifyWebhook<T = VerifiedWebhook['event']>(opts: VerifyWebhookOptions): VerifiedWebhook<T> {
  const secrets = typeof opts.secret === 'string' ? [opts.secret] : opts.secret;
  const now = opts.nowSeconds ?? Math.floor(Date.now() / 1000);
  const tolerance = opts.toleranceSeconds ?? 300;
  const body = Buffer.isBuffer(opts.payload) ? opts.payload : Buffer.from(opts.payload, 'utf8');
  const fresh = (t: number) => {
    if (!Number.isFinite(t) || Math.abs(now - t) > tolerance)
      throw new WebhookVerificationError('timestamp outside the tolerance');
  };
  const parse = () => JSON.parse(body.toString('utf8')) as T;

  const svc = header(opts.headers, 'svc-signature');
  if (svc) {
    const parts = svc.split(',').map((p) => p.trim().split('='));
    const t = Number(parts.find(([k]) => k === 't')?.[1]);
    fresh(t);
    const given = parts
      .filter(([k, v]) => k === 'v1' && /^[0-9a-f]{64}$/i.test(v ?? ''))
      .map(([, v]) => Buffer.from(v, 'hex'));
    for (const s of secrets) {
      const expected = createHmac('sha256', s).update(`${t}.`).update(body).digest();
      if (given.some((g) => equal(g, expected))) return { event: parse(), scheme: 'svc-signature' };
    }
    throw new WebhookVerificationError('no Svc-Signature v1 value matches');
  }

  const id = header(opts.headers, 'webhook-id');
  const ts = header(opts.headers, 'webhook-timestamp');
  const sig = header(opts.headers, 'webhook-signature');
  if (!id || !ts || !sig)
    throw new WebhookVerificationError('neither Svc-Signature nor the Standard Webhooks headers are present');
  fresh(Number(ts));
  const given = sig
    .split(' ')
    .map((p) => p.split(','))
    .filter(([v, b]) => v === 'v1' && b)
    .map(([, b]) => Buffer.from(b, 'base64'));
  for (const s of secrets) {
    const expected = createHmac('sha256', s).update(`${id}.${ts}.`).update(body).digest();
    if (given.some((g) => equal(g, expected))) return { event: parse(), scheme: 'standard-webhooks' };
  }
  throw new WebhookVerificationError('no webhook-signature v1 value matches');
}
