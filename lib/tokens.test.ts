import { base62, randomBase62 } from './base62';
import { crc32, displayPrefix, generateToken, hashToken, hasValidChecksum, TOKEN_PREFIX } from './tokens';

describe('personal access tokens (pure)', () => {
  it('crc32 is the standard CRC-32 (IEEE) and base62 pads to a fixed width', () => {
    expect(crc32('123456789')).toBe(0xcbf43926);
    expect(crc32('')).toBe(0);
    expect(base62(0, 6)).toBe('000000');
    expect(base62(61, 2)).toBe('0z');
    expect(base62(62, 2)).toBe('10');
    expect(base62(0xffffffff, 6)).toHaveLength(6); // the largest CRC fits in 6 base62 digits
  });

  it('generates svc_ + 30 random base62 characters + a 6-character checksum', () => {
    const tokens = Array.from({ length: 200 }, generateToken);
    for (const t of tokens) {
      expect(t).toMatch(/^svc_[0-9A-Za-z]{36}$/);
      expect(t.startsWith(TOKEN_PREFIX)).toBe(true);
      expect(hasValidChecksum(t)).toBe(true);
      expect(t.slice(-6)).toBe(base62(crc32(t.slice(4, 34)), 6));
    }
    expect(new Set(tokens).size).toBe(200);
    expect(randomBase62(1000)).toMatch(/^[0-9A-Za-z]{1000}$/);
  });

  it('the checksum lets a scanner reject typos and look-alikes offline', () => {
    const t = generateToken();
    const swap = (i: number) => t.slice(0, i) + (t[i] === 'x' ? 'y' : 'x') + t.slice(i + 1);
    // Every single-character change in the random part or the checksum is caught.
    for (let i = 4; i < t.length; i++) expect([i, hasValidChecksum(swap(i))]).toEqual([i, false]);
    expect(hasValidChecksum(t.replace('svc_', 'svx_'))).toBe(false);
    expect(hasValidChecksum(t.slice(0, -1))).toBe(false);
    expect(hasValidChecksum(`${t}0`)).toBe(false);
    expect(hasValidChecksum(` ${t}`)).toBe(false);
    expect(hasValidChecksum('svc_' + '0'.repeat(36))).toBe(false);
    expect(hasValidChecksum('')).toBe(false);
  });

  it('stores and shows only what cannot be used: a SHA-256 hash and a short display prefix', () => {
    const t = generateToken();
    expect(hashToken(t)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(t)).not.toContain(t.slice(4));
    expect(hashToken(t)).toBe(hashToken(t));
    expect(hashToken(t)).not.toBe(hashToken(generateToken()));
    const shown = displayPrefix(t);
    expect(shown).toBe(`${t.slice(0, 8)}…${t.slice(-4)}`);
    expect(shown.replace('…', '').length).toBe(12); // 4 + 4 + 4 of 40 characters; 26 random characters stay secret
  });
});
