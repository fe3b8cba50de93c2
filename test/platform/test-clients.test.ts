import { retryAfterMs, sendWithRetry, withIdempotencyKey } from '../helpers/client-retry';
import { createLoad } from '../helpers/load';

/** The test fixtures behave like real clients: what they retry, with which key, and how a harness stops its load. */
describe('test clients', () => {
  const answer = (statusCode: number, retryAfter?: string) => ({
    statusCode,
    headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
  });

  it('re-sends a 503 or 429 after its Retry-After, and stops at the first other answer', async () => {
    const answers = [answer(503, '0'), answer(429, '0'), answer(201)];
    let sent = 0;
    const res = await sendWithRetry(async () => answers[sent++]);
    expect(res.statusCode).toBe(201);
    expect(sent).toBe(3);
  });

  it('retry: false sees the first answer; a Retry-After past the budget is not waited for', async () => {
    let sent = 0;
    expect((await sendWithRetry(async () => (sent++, answer(503, '0')), { retry: false })).statusCode).toBe(503);
    expect(sent).toBe(1);
    sent = 0;
    expect((await sendWithRetry(async () => (sent++, answer(429, '900')))).statusCode).toBe(429);
    expect(sent).toBe(1);
  });

  it('gives up after a bounded number of attempts', async () => {
    let sent = 0;
    expect((await sendWithRetry(async () => (sent++, answer(503, '0')))).statusCode).toBe(503);
    expect(sent).toBe(5);
  });

  it('reads Retry-After as seconds or a date', () => {
    expect(retryAfterMs('5')).toBe(5_000);
    expect(retryAfterMs(new Date(Date.UTC(2030, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(10_000);
    expect(retryAfterMs(undefined)).toBe(1_000);
  });

  it('gives a mutating request one Idempotency-Key unless it has one or opts out', () => {
    const keyed = withIdempotencyKey('POST', { authorization: 'Bearer x' });
    expect(keyed['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(withIdempotencyKey('POST', { 'Idempotency-Key': 'mine' })).toEqual({ 'Idempotency-Key': 'mine' });
    expect(withIdempotencyKey('GET', {})).toEqual({});
    expect(withIdempotencyKey('PATCH', {}, { idempotencyKey: false })).toEqual({});
  });

  it('a harness stops its load: the signal is aborted and running tasks are awaited, new ones too', async () => {
    const load = createLoad();
    const finished: string[] = [];
    void load.track(async () => {
      while (!load.signal.aborted) await new Promise((r) => setTimeout(r, 5));
      // A loop on its way out may start one more task: it is waited for as well.
      void load.track(async () => {
        await new Promise((r) => setTimeout(r, 20));
        finished.push('last');
      });
      finished.push('loop');
    });
    await load.stop(5_000);
    expect(finished).toEqual(['loop', 'last']);
  });
});
