import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * AES-256-GCM under a key derived (HKDF-SHA256) from the server master key and a purpose label:
 * for data that must be kept for a while but never in plain text (e.g. a stored idempotent answer
 * that carries a one-time secret). Output: `v1.<iv>.<tag>.<ciphertext>` in base64url.
 */
function keyFor(masterKey: string, purpose: string): Buffer {
  return Buffer.from(
    hkdfSync('sha256', Buffer.from(masterKey, 'utf8'), Buffer.alloc(0), Buffer.from(`jobfair:${purpose}`, 'utf8'), 32),
  );
}

export function seal(plaintext: string, masterKey: string, purpose: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFor(masterKey, purpose), iv);
  const ct = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), ct.toString('base64url')].join(
    '.',
  );
}

export function unseal(sealed: string, masterKey: string, purpose: string): string {
  const [v, iv, tag, ct] = sealed.split('.');
  if (v !== 'v1' || !iv || !tag || ct === undefined) throw new Error('not a sealed value');
  const decipher = createDecipheriv('aes-256-gcm', keyFor(masterKey, purpose), Buffer.from(iv, 'base64url'));
  decipher.setAuthTag(Buffer.from(tag, 'base64url'));
  return Buffer.concat([decipher.update(Buffer.from(ct, 'base64url')), decipher.final()]).toString('utf8');
}

/**
 * E-mail bodies that carry a credential (team invite links) are kept sealed in `email_outbox`
 * (decision 0163): `sealed:` + a sealed value. The outbox sender opens them just before sending.
 */
export const SEALED_BODY_PREFIX = 'sealed:';
const OUTBOX_PURPOSE = 'email-outbox';

export function sealOutboxBody(body: string, masterKey: string): string {
  return SEALED_BODY_PREFIX + seal(body, masterKey, OUTBOX_PURPOSE);
}

/** The plain body of an outbox row (rows written before sealing, or without a credential, are plain). */
export function openOutboxBody(body: string, masterKey: string): string {
  return body.startsWith(SEALED_BODY_PREFIX)
    ? unseal(body.slice(SEALED_BODY_PREFIX.length), masterKey, OUTBOX_PURPOSE)
    : body;
}
