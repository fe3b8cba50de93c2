import { seal, unseal } from './sealed';

describe('seal/unseal', () => {
  const key = 'k'.repeat(40);
  it('round-trips and never contains the plaintext', () => {
    const s = seal('{"secret":"svc_whsec_abc"}', key, 'idempotency');
    expect(s).not.toContain('svc_whsec_abc');
    expect(unseal(s, key, 'idempotency')).toBe('{"secret":"svc_whsec_abc"}');
  });
  it('refuses another key, another purpose and any altered byte', () => {
    const s = seal('hello', key, 'idempotency');
    expect(() => unseal(s, 'x'.repeat(40), 'idempotency')).toThrow();
    expect(() => unseal(s, key, 'other')).toThrow();
    const parts = s.split('.');
    parts[3] = Buffer.from('jello').toString('base64url');
    expect(() => unseal(parts.join('.'), key, 'idempotency')).toThrow();
  });
});
