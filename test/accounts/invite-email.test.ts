import { randomBytes, randomUUID } from 'node:crypto';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { startSmtp } from '../webhooks/helpers';

/**
 * A team invite's e-mail is sent, not only written to the outbox: the worker's outbox sender
 * delivers it to a real SMTP server (smtp-server), and a keyed retry of the invite sends nothing more.
 */
describe('team invites reach the invitee by e-mail', () => {
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

  it('sends the invite with its link once, also when the request is retried with its key', async () => {
    const owner = await h.recruiter();
    const email = `invitee-${randomBytes(4).toString('hex')}@example.com`;
    const key = randomUUID();
    const invite = () =>
      h.call({
        method: 'POST',
        url: '/api/v1/team/invites',
        token: owner.token,
        payload: { email, role: 'admin' },
        headers: { 'idempotency-key': key },
      });
    const first = await invite();
    expect(first.statusCode).toBe(201);

    const mail = await eventually(async () => smtp.mails.find((m) => m.to.includes(email)), 30_000, 100);
    expect(mail.raw).toMatch(/invites\/inv_[A-Za-z0-9_-]+/);
    await eventually(
      async () => (await h.knex('email_outbox').where({ to_address: email }).first())?.status === 'sent',
    );

    const again = await invite();
    expect(again.statusCode).toBe(201);
    expect(again.json().invite.id).toBe(first.json().invite.id);
    // One outbox row, already sent: its sending workflow (one id per row) has nothing more to do.
    expect(await h.knex('email_outbox').where({ to_address: email })).toHaveLength(1);
    expect((await h.knex('email_outbox').where({ to_address: email }).first()).status).toBe('sent');
    expect(smtp.mails.filter((m) => m.to.includes(email))).toHaveLength(1);
  });
});
