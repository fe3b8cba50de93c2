import { createHarness, eventually, type Harness } from '../helpers/harness';
import { WebClient } from '../helpers/web-client';
import { startSmtp, type ReceivedMail } from '../webhooks/helpers';
import { pathOf } from '../helpers/signup';

/** The text of a received message: headers dropped, quoted-printable soft breaks and escapes undone. */
function textOf(mail: ReceivedMail): string {
  const body = mail.raw
    .split(/\r?\n\r?\n/)
    .slice(1)
    .join('\n\n');
  return body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/**
 * Sign-up does not reveal registered addresses (decision 0182), through the real SMTP server
 * (smtp-server) and the worker's outbox sender: a new and a registered address get the same answer;
 * the new one gets a link that creates the account (once), the registered one an e-mail saying so.
 */
describe('sign-up with an e-mail confirmation step', () => {
  let h: Harness;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    h = await createHarness({ env: { SMTP_URL: smtp.url } });
  });
  afterAll(async () => {
    await h?.close();
    await smtp?.close();
  });

  const form = (email: string) => ({
    display_name: 'Grace Hopper',
    email,
    password: 'a long enough password',
    role: 'seeker',
  });
  const mailTo = (address: string) =>
    eventually(
      async () => smtp.mails.find((m) => m.to.includes(address.toLowerCase()) || m.to.includes(address)),
      30_000,
      100,
    );
  // The page as a person sees it: the per-session CSRF token (in a meta tag and forms) aside.
  const sentPage = async (c: WebClient) =>
    (await c.get('/signup/sent')).body
      .replace(/name="_csrf" value="[^"]*"/g, '')
      .replace(/<meta name="csrf-token" content="[^"]*">/g, '');

  it(
    'answers a new and a registered address alike; e-mails a one-time link or "you already ' + 'have an account"',
    async () => {
      const known = await h.seeker();
      const fresh = 'grace.new@example.test';

      const a = new WebClient(h.app);
      const b = new WebClient(h.app);
      const forNew = await a.submit('/signup', '/signup', form(fresh));
      const forKnown = await b.submit('/signup', '/signup', form(known.user.email.toUpperCase()));
      expect([forNew.statusCode, forNew.headers.location]).toEqual([303, '/signup/sent']);
      expect([forKnown.statusCode, forKnown.headers.location]).toEqual([forNew.statusCode, forNew.headers.location]);
      expect(forKnown.body).toBe(forNew.body);
      expect(await sentPage(b)).toBe(await sentPage(a));
      expect(await sentPage(a)).toContain('Check your inbox');

      // Through the outbox and SMTP: the link to the new address, a notice to the registered one.
      const newMail = textOf(await mailTo(fresh));
      const knownMail = textOf(await mailTo(known.user.email));
      expect(knownMail).toContain('You already have an account');
      expect(knownMail).not.toMatch(/\/signup\/confirm\//);
      const link = /(http\S+\/signup\/confirm\/su_[A-Za-z0-9_-]+)/.exec(newMail)![1];
      expect(link.startsWith(h.config.publicBaseUrl)).toBe(true);
      // The link is sealed at rest in the outbox; only its hash is in signup_requests.
      const row = await h.knex('email_outbox').where({ to_address: fresh }).first();
      expect(row).toMatchObject({ kind: 'signup_confirm', status: 'sent' });
      expect(row.body.startsWith('sealed:')).toBe(true);
      const token = link.split('/').pop()!;
      for (const t of ['email_outbox', 'signup_requests']) {
        const { rows } = await h.knex.raw<{ rows: Array<{ n: number }> }>(
          `SELECT count(*)::int AS n FROM "${t}" x WHERE x::text LIKE ?`,
          [`%${token}%`],
        );
        expect([t, rows[0].n]).toEqual([t, 0]);
      }

      // No account until the link is opened; the registered account is untouched.
      expect(await h.knex('users').whereRaw('lower(email) = lower(?)', [fresh])).toHaveLength(0);
      expect(await h.knex('users').whereRaw('lower(email) = lower(?)', [known.user.email])).toHaveLength(1);
      expect(
        (await new WebClient(h.app).submit('/login', '/login', { email: fresh, password: 'a long enough password' }))
          .statusCode,
      ).toBe(400);

      // Opening the link shows whose sign-up it finishes; the GET creates nothing (mail scanners).
      const c = new WebClient(h.app);
      const page = await c.get(pathOf(link));
      expect(page.statusCode).toBe(200);
      expect(page.body).toContain(fresh);
      expect(await h.knex('users').whereRaw('lower(email) = lower(?)', [fresh])).toHaveLength(0);
      const done = await c.submit(pathOf(link), pathOf(link), {});
      expect([done.statusCode, done.headers.location]).toEqual([303, '/onboarding']);
      expect(c.cookies.has('jf_session')).toBe(true);
      const user = await h.knex('users').whereRaw('lower(email) = lower(?)', [fresh]).first();
      expect(user).toMatchObject({ display_name: 'Grace Hopper', role: 'seeker' });
      expect(user.password_hash).toMatch(/^scrypt\$/);
      expect(
        (await new WebClient(h.app).submit('/login', '/login', { email: fresh, password: 'a long enough password' }))
          .statusCode,
      ).toBe(303);

      // Once: the link is void afterwards.
      expect((await new WebClient(h.app).get(pathOf(link))).statusCode).toBe(404);
      const again = new WebClient(h.app);
      const reuse = await again
        .submit('/signup', '/signup', {})
        .then(() => again.post(pathOf(link), {}, { csrf: WebClient.csrfOf(page.body) }));
      expect([403, 404]).toContain(reuse.statusCode);
      expect(await h.knex('users').whereRaw('lower(email) = lower(?)', [fresh])).toHaveLength(1);
    },
  );

  it('a second sign-up of the new address after it was created gets the "already have an account" e-mail', async () => {
    const c = new WebClient(h.app);
    const email = 'twice@example.test';
    await c.submit('/signup', '/signup', form(email));
    const first = /(http\S+\/signup\/confirm\/su_[A-Za-z0-9_-]+)/.exec(textOf(await mailTo(email)))![1];
    await c.submit(pathOf(first), pathOf(first), {});
    const before = smtp.mails.length;
    const d = new WebClient(h.app);
    const res = await d.submit('/signup', '/signup', form(email));
    expect(res.headers.location).toBe('/signup/sent');
    const notice = await eventually(
      async () => smtp.mails.slice(before).find((m) => m.to.includes(email)),
      30_000,
      100,
    );
    expect(textOf(notice)).toContain('You already have an account');
  });
});
