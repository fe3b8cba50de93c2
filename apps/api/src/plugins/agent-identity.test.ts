import { parseAgentIdentity } from './agent-identity';
import { ValidationError } from '#lib/errors';

describe('X-Agent-Identity', () => {
  it('accepts <vendor>/<product> (<contact>) up to 200 characters, absent → null', () => {
    expect(parseAgentIdentity(undefined)).toBeNull();
    expect(parseAgentIdentity('acme/jobbot (ops@acme.example)')).toBe('acme/jobbot (ops@acme.example)');
    expect(parseAgentIdentity('acme/jobbot/v2 (https://acme.example/agents)')).toBe(
      'acme/jobbot/v2 (https://acme.example/agents)',
    );
    const max = `a/b (${'c'.repeat(194)})`;
    expect(max).toHaveLength(200);
    expect(parseAgentIdentity(max)).toBe(max);
  });

  it('refuses anything else with a VALIDATION error naming the header', () => {
    for (const bad of [
      `a/b (${'c'.repeat(195)})`,
      '',
      'acme',
      'acme/jobbot',
      'acme/jobbot ()',
      'acme /jobbot (x)',
      'acme/jobbot  (x)',
      'acme/jobbot (x) y',
      '(x)/y (z)',
    ]) {
      let err: unknown;
      try {
        parseAgentIdentity(bad);
      } catch (e) {
        err = e;
      }
      expect([bad, err instanceof ValidationError]).toEqual([bad, true]);
      expect((err as ValidationError).details).toEqual({
        issues: [{ path: 'headers.x-agent-identity', message: expect.any(String) }],
      });
    }
  });
});
