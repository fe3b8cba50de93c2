import { createHarness, type Harness } from '../helpers/harness';
import { WebClient } from '../helpers/web-client';

/**
 * Sign-up sends an e-mail for every valid form (decision 0182), so it is limited per client IP
 * (decision 0201): `SIGNUP_ATTEMPTS_PER_IP` per 15 minutes, then 429 with Retry-After and the form
 * again with the reason — and no e-mail. Another address is not affected.
 */
describe('sign-up limit per client IP', () => {
  let h: Harness;
  const PER_IP = 3;
  beforeAll(async () => {
    h = await createHarness({ worker: false, env: { SIGNUP_ATTEMPTS_PER_IP: String(PER_IP), TRUST_PROXY: 'true' } });
  });
  afterAll(() => h?.close());

  const outbox = async (emails: string[]) =>
    Number((await h.knex('email_outbox').whereIn('to_address', emails).count({ n: '*' }))[0].n);

  it(
    `accepts ${PER_IP} sign-ups from one IP, refuses the next with 429 and Retry-After (no ` +
      `e-mail); another IP still signs up`,
    async () => {
      // The flood must see the 429 itself: no retry after Retry-After.
      const flooder = new WebClient(h.app, { 'x-forwarded-for': '198.51.100.9' }, { retry: false });
      const emails = Array.from({ length: PER_IP + 1 }, (_, i) => `flood-${i}@example.test`);
      for (const email of emails.slice(0, PER_IP)) {
        const r = await flooder.submit('/signup', '/signup', {
          display_name: 'Flood',
          email,
          password: 'long enough password',
          role: 'seeker',
        });
        expect({ status: r.statusCode, location: r.headers.location }).toEqual({
          status: 303,
          location: '/signup/sent',
        });
      }
      // An invalid form is answered as before (400) and takes nothing.
      const invalid = await flooder.submit('/signup', '/signup', {
        display_name: '',
        email: 'not an address',
        password: 'short',
        role: 'seeker',
      });
      expect(invalid.statusCode).toBe(400);

      const limited = await flooder.submit('/signup', '/signup', {
        display_name: 'Flood',
        email: emails[PER_IP],
        password: 'long enough password',
        role: 'seeker',
      });
      expect(limited.statusCode).toBe(429);
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      expect(limited.body).toMatch(/Too many sign-ups from your network\. Try again in \d+ seconds\./);
      expect(await outbox(emails)).toBe(PER_IP);

      const other = new WebClient(h.app, { 'x-forwarded-for': '203.0.113.30' });
      const fine = await other.submit('/signup', '/signup', {
        display_name: 'Someone else',
        email: 'else@example.test',
        password: 'long enough password',
        role: 'seeker',
      });
      expect(fine.statusCode).toBe(303);
      expect(await outbox(['else@example.test'])).toBe(1);
    },
  );
});
