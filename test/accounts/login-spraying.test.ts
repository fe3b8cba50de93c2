import { signUpWithClient } from '../helpers/signup';
import { createHarness, type Harness } from '../helpers/harness';
import { WebClient } from '../helpers/web-client';

/** Password spraying: one client IP trying one password against many accounts is limited across accounts. */
describe('sign-in limit per client IP across accounts', () => {
  let h: Harness;
  const PER_IP = 5;
  beforeAll(async () => {
    h = await createHarness({ worker: false, env: { LOGIN_ATTEMPTS_PER_IP: String(PER_IP), TRUST_PROXY: 'true' } });
  });
  afterAll(() => h?.close());

  it(
    `refuses the ${PER_IP + 1}th attempt from one IP on ${PER_IP + 1} different accounts; ` +
      `another IP still signs in`,
    async () => {
      const sprayer = new WebClient(h.app, { 'x-forwarded-for': '198.51.100.7' }, { retry: false });
      for (let i = 0; i < PER_IP; i++) {
        const r = await sprayer.submit('/login', '/login', {
          email: `victim-${i}@example.test`,
          password: 'Winter2026!',
        });
        expect(r.statusCode).toBe(400);
      }
      const limited = await sprayer.submit('/login', '/login', {
        email: `victim-${PER_IP}@example.test`,
        password: 'Winter2026!',
      });
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);

      const user = new WebClient(h.app, { 'x-forwarded-for': '203.0.113.20' });
      const signup = await signUpWithClient(user, h, {
        display_name: 'Real User',
        email: 'real@example.test',
        password: 'long enough password',
        role: 'seeker',
      });
      expect(signup.statusCode).toBe(303);
      const other = new WebClient(h.app, { 'x-forwarded-for': '203.0.113.21' });
      const fine = await other.submit('/login', '/login', {
        email: 'real@example.test',
        password: 'long enough password',
      });
      expect(fine.statusCode).toBe(303);
    },
  );
});
