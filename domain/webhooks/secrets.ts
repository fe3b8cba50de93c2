import { createHash, createHmac, randomBytes } from 'node:crypto';
import { base62Bytes } from '#lib/base62';

/**
 * Webhook secrets are never stored. A secret is derived from the server master key, the
 * subscription id and a random per-secret salt (stored):
 *   secret = "svc_whsec_" + base62Bytes(HMAC-SHA256(appSecret, "whsec:" + whk_id + ":" + salt))
 * The delivery activity re-derives it from the salt to sign; the database also keeps a SHA-256
 * of the secret to identify it. See docs/decisions/0020-webhooks.md ("Secrets are derived").
 */
export const WEBHOOK_SECRET_PREFIX = 'svc_whsec_';

export function newSecretSalt(): string {
  return randomBytes(16).toString('hex');
}

export function deriveWebhookSecret(appSecret: string, webhookId: string, salt: string): string {
  return (
    WEBHOOK_SECRET_PREFIX + base62Bytes(createHmac('sha256', appSecret).update(`whsec:${webhookId}:${salt}`).digest())
  );
}

export function hashWebhookSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}
