import { createHmac, timingSafeEqual } from 'node:crypto';

/** Raw body of every delivery: the envelope `{ id, type, created_at (Unix s), data }` as UTF-8 JSON. */
export function buildEnvelope(event: { id: string; type: string; createdAtMs: number; data: unknown }): string {
  return JSON.stringify({
    id: event.id,
    type: event.type,
    created_at: Math.floor(event.createdAtMs / 1000),
    data: event.data,
  });
}

/** Lowercase hex HMAC-SHA256, keyed with the subscription secret, of `<t>.<raw body>`. */
export function computeSignature(secret: string, t: number, payload: string | Buffer): string {
  return createHmac('sha256', secret).update(`${t}.`).update(payload).digest('hex');
}

/** `t=<t>,v1=<hex>[,v1=<hex>…]`: one v1 per secret that currently signs (two during a rotation). */
export function signatureHeader(secrets: readonly string[], t: number, payload: string | Buffer): string {
  return [`t=${t}`, ...secrets.map((s) => `v1=${computeSignature(s, t, payload)}`)].join(',');
}

/**
 * Standard Webhooks (standardwebhooks.com) signature of one attempt: base64 HMAC-SHA256 of
 * `<webhook-id>.<webhook-timestamp>.<raw body>`. The key is the UTF-8 bytes of the same
 * `svc_whsec_…` secret that keys `Svc-Signature`, so one secret serves both schemes; a Standard
 * Webhooks library takes it as a raw key (`new Webhook(secret, { format: 'raw' })`) or, in
 * libraries that only accept the base64 form, as `whsec_` + base64(secret).
 */
export function computeStandardSignature(secret: string, msgId: string, t: number, payload: string | Buffer): string {
  return createHmac('sha256', secret).update(`${msgId}.${t}.`).update(payload).digest('base64');
}

/** `v1,<b64>[ v1,<b64>…]`: space-separated, one per secret that currently signs (the spec's form for rotation). */
export function standardSignatureHeader(
  secrets: readonly string[],
  msgId: string,
  t: number,
  payload: string | Buffer,
): string {
  return secrets.map((s) => `v1,${computeStandardSignature(s, msgId, t, payload)}`).join(' ');
}

/**
 * Every signature header of one attempt, from one `t` and the same secrets: `Svc-Signature`
 * (Stripe's scheme) plus the three Standard Webhooks headers. `webhook-id` is the event id, so it
 * stays the same across retries and replays (receivers deduplicate on it).
 */
export function signatureHeaders(
  secrets: readonly string[],
  eventId: string,
  t: number,
  payload: string | Buffer,
): Record<string, string> {
  return {
    'svc-signature': signatureHeader(secrets, t, payload),
    'webhook-id': eventId,
    'webhook-timestamp': String(t),
    'webhook-signature': standardSignatureHeader(secrets, eventId, t, payload),
  };
}

/** Base64 form of a `svc_whsec_…` secret for Standard Webhooks libraries that only take `whsec_<base64>`. */
export function standardWebhooksSecret(secret: string): string {
  return `whsec_${Buffer.from(secret, 'utf8').toString('base64')}`;
}

export function parseSignatureHeader(header: string): { t: number | null; v1: string[] } {
  let t: number | null = null;
  const v1: string[] = [];
  for (const part of header.split(',')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const k = part.slice(0, i).trim();
    const v = part.slice(i + 1).trim();
    if (k === 't' && /^\d{1,12}$/.test(v)) t = Number(v);
    else if (k === 'v1' && /^[0-9a-f]{64}$/i.test(v)) v1.push(v.toLowerCase());
  }
  return { t, v1 };
}

export interface VerifyWebhookSignatureOptions {
  /** The raw request body exactly as received (do not re-serialise parsed JSON). */
  payload: string | Buffer;
  /** The `Svc-Signature` header. */
  header: string | string[] | undefined | null;
  /** Your subscription secret (`svc_whsec_…`); pass two while you rotate. */
  secret: string | readonly string[];
  /** Accepted age of `t` either way, in seconds (default 300). */
  toleranceSeconds?: number;
  /** For tests: the current Unix time in seconds. */
  nowSeconds?: number;
}

/**
 * Receiver-side verification of a delivery: true when `t` is within ±toleranceSeconds of now and
 * at least one `v1=` value matches the HMAC of `<t>.<payload>` under one of the given secrets.
 * Several `v1` values are normal (the sender signs with the old and the new secret while a
 * rotated secret is still valid). Constant-time comparison.
 */
export function verifyWebhookSignature(opts: VerifyWebhookSignatureOptions): boolean {
  const header = Array.isArray(opts.header) ? opts.header.join(',') : opts.header;
  if (!header) return false;
  const { t, v1 } = parseSignatureHeader(header);
  if (t === null || v1.length === 0) return false;
  const now = opts.nowSeconds ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - t) > (opts.toleranceSeconds ?? 300)) return false;
  const secrets = typeof opts.secret === 'string' ? [opts.secret] : opts.secret;
  for (const secret of secrets) {
    const expected = Buffer.from(computeSignature(secret, t, opts.payload), 'hex');
    for (const candidate of v1) {
      const given = Buffer.from(candidate, 'hex');
      if (given.length === expected.length && timingSafeEqual(given, expected)) return true;
    }
  }
  return false;
}
