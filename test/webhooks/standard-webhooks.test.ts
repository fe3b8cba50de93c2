import Stripe from 'stripe';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { createHarness, eventually, type Harness, type TestUser } from '../helpers/harness';
import { standardWebhooksSecret } from '#domain/webhooks/index';
import { startReceiver, type Receiver } from './helpers';
import { emitterFor } from './emit';

// Receivers use the unmodified libraries exactly as their READMEs say; nothing here re-implements a check.
const stripe = new Stripe('sk_test_unused_no_network');

describe('every attempt carries Svc-Signature and the Standard Webhooks headers, from one secret', () => {
  let h: Harness;
  let rx: Receiver;
  let s: TestUser;
  let emit: ReturnType<typeof emitterFor>;
  let failFirst = true;

  beforeAll(async () => {
    rx = await startReceiver((r) => {
      if (r.url === '/flaky' && failFirst) {
        failFirst = false;
        return { status: 500, body: 'first attempt fails' };
      }
      return { status: 204 };
    });
    h = await createHarness({
      env: { WEBHOOK_RETRY_SCHEDULE_MS: '200,200,200,200,200', WEBHOOK_SECRET_OVERLAP_MS: '60000' },
    });
    emit = emitterFor(h);
    s = await h.seeker();
  });
  afterAll(async () => {
    await h?.close();
    await rx?.close();
  });

  it(
    'a retried delivery verifies with stripe.webhooks.constructEvent and standardwebhooks; ' +
      'webhook-id is the event id on every attempt',
    async () => {
      const hook = (
        await h.call({
          method: 'POST',
          url: '/api/v1/webhooks',
          token: s.token,
          payload: { target_url: rx.url('/flaky'), events: ['match.matched'] },
        })
      ).json();
      const event = await emit({
        type: 'match.matched',
        ownerUserIds: [s.user.id],
        data: { match_id: 'm-1', role_title: 'Engineer', seeker_headline: 'TS' },
      });
      const got = await eventually(async () => rx.forEvent(event.id).length >= 2 && rx.forEvent(event.id));
      expect(got).toHaveLength(2);
      for (const r of got) {
        expect(r.headers['webhook-id']).toBe(event.id);
        expect(r.headers['webhook-timestamp']).toMatch(/^\d+$/);
        expect(String(r.headers['svc-signature'])).toContain(`t=${r.headers['webhook-timestamp']},`);
        expect(String(r.headers['webhook-signature'])).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);

        const viaStripe = stripe.webhooks.constructEvent(r.rawBody, String(r.headers['svc-signature']), hook.secret);
        expect(viaStripe.id).toBe(event.id);

        const raw = new Webhook(hook.secret, { format: 'raw' });
        expect(raw.verify(r.rawBody, r.headers as Record<string, string>)).toMatchObject({
          id: event.id,
          type: 'match.matched',
        });
        // The `whsec_<base64>` form for libraries (and languages) that take only that.
        const b64 = new Webhook(standardWebhooksSecret(hook.secret));
        expect(b64.verify(r.rawBody, r.headers as Record<string, string>)).toMatchObject({ id: event.id });
      }
      // Delivery ids differ per attempt; the event id (webhook-id) does not.
      expect(got[0].headers['svc-delivery-id']).not.toBe(got[1].headers['svc-delivery-id']);

      // Failing cases with the same libraries: another secret, a tampered body.
      const other = 'svc_whsec_0000000000000000000000000000000000000000000';
      expect(() =>
        stripe.webhooks.constructEvent(got[1].rawBody, String(got[1].headers['svc-signature']), other),
      ).toThrow();
      expect(() =>
        new Webhook(other, { format: 'raw' }).verify(got[1].rawBody, got[1].headers as Record<string, string>),
      ).toThrow(WebhookVerificationError);
      const tampered = got[1].rawBody.replace('Engineer', 'Engineeq');
      expect(() =>
        new Webhook(hook.secret, { format: 'raw' }).verify(tampered, got[1].headers as Record<string, string>),
      ).toThrow(WebhookVerificationError);
    },
  );

  it('during a secret rotation both schemes carry one signature per active secret, and both secrets verify', async () => {
    const hook = (
      await h.call({
        method: 'POST',
        url: '/api/v1/webhooks',
        token: s.token,
        payload: { target_url: rx.url('/rotating'), events: ['match.matched'] },
      })
    ).json();
    const rot = (
      await h.call({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/rotate-secret`, token: s.token })
    ).json();
    const test = (await h.call({ method: 'POST', url: `/api/v1/webhooks/${hook.id}/test`, token: s.token })).json();
    const [d] = await eventually(async () => rx.forEvent(test.event.id).length > 0 && rx.forEvent(test.event.id));
    expect(String(d.headers['svc-signature']).match(/v1=/g)).toHaveLength(2);
    expect(String(d.headers['webhook-signature']).split(' ')).toHaveLength(2);
    for (const secret of [hook.secret, rot.secret]) {
      expect(stripe.webhooks.constructEvent(d.rawBody, String(d.headers['svc-signature']), secret).id).toBe(
        test.event.id,
      );
      expect(
        new Webhook(secret, { format: 'raw' }).verify(d.rawBody, d.headers as Record<string, string>),
      ).toMatchObject({ id: test.event.id, type: 'webhook.test' });
    }
  });
});
