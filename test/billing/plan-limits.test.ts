import { createHarness, type Harness } from '../helpers/harness';
import { createEvent, transition } from '../events/helpers';
import { checkoutAndPay } from './helpers';

describe('what a plan buys: live events at once', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ env: { BILLING_FREE_MAX_LIVE_EVENTS: '1' } });
  }, 60_000);
  afterAll(async () => {
    await h?.close();
  });

  it(
    'free gets one live event at once: the second go-live → 402 PLAN_LIMIT_REACHED naming the ' +
      'plan; ending one frees the slot; pro allows more',
    async () => {
      const rec = await h.recruiter();
      const a = await createEvent(h, rec);
      const b = await createEvent(h, rec);
      expect((await transition(h, rec, a.id, 'go-live')).statusCode).toBe(200);
      const refused = await transition(h, rec, b.id, 'go-live');
      expect(refused.statusCode).toBe(402);
      expect(refused.json()).toMatchObject({
        code: 'PLAN_LIMIT_REACHED',
        details: {
          plan: 'free',
          resource: 'live_events',
          limit: 1,
          upgrade_url: 'http://jobfair.test/recruiter/billing',
        },
      });
      expect((await h.knex('live_events').where({ id: b.id }).first()).status).toBe('draft');
      // A paused event still counts; resuming it is not a second one.
      expect((await transition(h, rec, a.id, 'pause')).statusCode).toBe(200);
      expect((await transition(h, rec, b.id, 'go-live')).statusCode).toBe(402);
      expect((await transition(h, rec, a.id, 'resume')).statusCode).toBe(200);
      expect((await transition(h, rec, a.id, 'end')).statusCode).toBe(200);
      expect((await transition(h, rec, b.id, 'go-live')).statusCode).toBe(200);

      await checkoutAndPay(h, rec, { plan: 'pro', interval: 'month' });
      const c = await createEvent(h, rec);
      expect((await transition(h, rec, c.id, 'go-live')).statusCode).toBe(200);
    },
  );

  it('two go-lives at once on free: exactly one wins', async () => {
    const rec = await h.recruiter();
    const a = await createEvent(h, rec);
    const b = await createEvent(h, rec);
    const [ra, rb] = await Promise.all([transition(h, rec, a.id, 'go-live'), transition(h, rec, b.id, 'go-live')]);
    expect([ra.statusCode, rb.statusCode].sort()).toEqual([200, 402]);
    expect(
      await h.knex('live_events').where({ team_id: rec.teamId }).whereIn('status', ['live', 'paused']).count('* as n'),
    ).toEqual([{ n: 1 }]);
  });
});
