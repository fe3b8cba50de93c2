import { createHash, randomBytes } from 'node:crypto';

/**
 * Crash-safe idempotency for routes that write PostgreSQL directly (decision 0160).
 *
 * A request carrying an `Idempotency-Key` gets an *operation key*: a digest of the token and the
 * key. Every row such a request creates takes its id (and any random salt) from the operation key,
 * so when the process dies after the write committed but before the answer was stored, the keyed
 * retry recomputes the same id, finds the row and answers with it instead of creating a second one.
 * A request without a key gets random values as before (no idempotency was asked for).
 */
export type OperationKey = string;

export function operationKey(tokenId: string, idempotencyKey: string): OperationKey {
  return createHash('sha256').update(`op:${tokenId}:${idempotencyKey.toLowerCase()}`).digest('hex');
}

/** 32 hex characters derived from the operation key and a purpose (`job`, `webhook`, …), else random. */
function material(op: OperationKey | null | undefined, purpose: string, bytes = 16): string {
  if (!op) return randomBytes(bytes).toString('hex');
  return createHash('sha256')
    .update(`${op}:${purpose}`)
    .digest('hex')
    .slice(0, bytes * 2);
}

/** A UUID (version 8, "custom": derived, not random) for a uuid primary key. */
export function operationUuid(op: OperationKey | null | undefined, purpose: string): string {
  const h = material(op, purpose).split('');
  h[12] = '8';
  h[16] = ((parseInt(h[16], 16) & 0x3) | 0x8).toString(16);
  const s = h.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

/** Hex material (default 12 bytes) for prefixed ids such as `whk_…` and for salts. */
export function operationHex(op: OperationKey | null | undefined, purpose: string, bytes = 12): string {
  return material(op, purpose, bytes);
}
