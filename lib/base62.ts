import { randomBytes } from 'node:crypto';

/**
 * Base62 (digits, then upper case, then lower case) as tokens, their checksums and webhook secrets
 * write it: characters that survive URLs, headers and a double-click select.
 */
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A non-negative integer in base62, left-padded with '0' to `width` characters. */
export function base62(n: number | bigint, width: number): string {
  let v = BigInt(n);
  let out = '';
  while (v > 0n) {
    out = ALPHABET[Number(v % 62n)] + out;
    v /= 62n;
  }
  return out.padStart(width, '0');
}

/** Bytes read as one big-endian integer, in base62 at a fixed width for their length (43 characters for 32 bytes) so every secret has the same length. */
export function base62Bytes(buf: Buffer): string {
  return base62(BigInt(`0x${buf.toString('hex') || '0'}`), Math.ceil((buf.length * 8) / Math.log2(62)));
}

/** `len` random base62 characters. */
export function randomBase62(len: number): string {
  let out = '';
  while (out.length < len) {
    for (const b of randomBytes(len * 2)) {
      if (b < 248 && out.length < len) out += ALPHABET[b % 62]; // 248 = 62*4: no modulo bias
    }
  }
  return out;
}
