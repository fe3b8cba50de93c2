import { createHash, createHmac, randomBytes } from 'node:crypto';

/**
 * Webhook secrets are never stored. A secret is derived from the server master key, the
 * subscription id and a random per-secret salt (stored):
 *   secret = "svc_whsec_" + base62(HMAC-SHA256(appSecret, "whsec:" + whk_id + ":" + salt))
 * The delivery activity re-derives it from the salt to sign; the database also keeps a SHA-256
 * of the secret to identify it. See docs/decisions/0020-webhooks.md ("Secrets are derived").
 */
export const WEBHOOK_SECRET_PREFIX = 'svc_whsec_';

const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function base62(buf: Buffer): string {
  let n = BigInt(`0x${buf.toString('hex') || '0'}`);
  let out = '';
  while (n > 0n) {
    out = BASE62[Number(n % 62n)] + out;
    n /= 62n;
  }
  // Fixed width (43 chars for 32 bytes) so every secret has the same length.
  const width = Math.ceil((buf.length * 8) / Math.log2(62));
  return out.padStart(width, '0');
}

export function newSecretSalt(): string {
  return randomBytes(16).toString('hex');
}

export function deriveWebhookSecret(appSecret: string, webhookId: string, salt: string): string {
  return WEBHOOK_SECRET_PREFIX + base62(createHmac('sha256', appSecret).update(`whsec:${webhookId}:${salt}`).digest());
}

export function hashWebhookSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
