import { createHash } from 'node:crypto';
import { base62, randomBase62 } from './base62';

/**
 * Personal access tokens: `svc_` + 30 random base62 characters + a 6-character base62 CRC32
 * of those 30 (GitHub's pattern), so a secret scanner can tell a real token offline.
 * Only the SHA-256 of the whole token is stored; the token itself is shown once.
 */
export const TOKEN_PREFIX = 'svc_';
const RANDOM_LEN = 30;
const CHECKSUM_LEN = 6;
/** OAuth (decision 0260): access tokens, refresh tokens and authorization codes, same shape, own prefix. */
export const OAUTH_ACCESS_PREFIX = 'sva_';
export const OAUTH_REFRESH_PREFIX = 'svr_';
export const OAUTH_CODE_PREFIX = 'svz_';
const SHAPES = new Map<string, RegExp>();
const shapeOf = (prefix: string): RegExp => {
  let re = SHAPES.get(prefix);
  if (!re) SHAPES.set(prefix, (re = new RegExp(`^${prefix}[0-9A-Za-z]{${RANDOM_LEN + CHECKSUM_LEN}}$`)));
  return re;
};

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

export function crc32(s: string): number {
  let crc = 0xffffffff;
  for (const byte of Buffer.from(s, 'utf8')) crc = CRC_TABLE[(crc ^ byte) & 0xff] ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

export function generateToken(prefix: string = TOKEN_PREFIX): string {
  const body = randomBase62(RANDOM_LEN);
  return `${prefix}${body}${base62(crc32(body), CHECKSUM_LEN)}`;
}

/** Offline check a scanner can run: shape plus checksum. */
export function hasValidChecksum(token: string, prefix: string = TOKEN_PREFIX): boolean {
  if (!shapeOf(prefix).test(token)) return false;
  const body = token.slice(prefix.length, prefix.length + RANDOM_LEN);
  const sum = token.slice(prefix.length + RANDOM_LEN);
  return base62(crc32(body), CHECKSUM_LEN) === sum;
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** What lists show: enough to recognise a token, never enough to use it. */
export function displayPrefix(token: string): string {
  return `${token.slice(0, TOKEN_PREFIX.length + 4)}…${token.slice(-4)}`;
}
