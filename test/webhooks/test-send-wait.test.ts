import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { createHarness, eventually, type Harness } from '../helpers/harness';

/**
 * POST /webhooks/{id}/test waits for the first attempt only WEBHOOK_TEST_WAIT_MS (decision 0202):
 * a receiver that has not answered by then gets the event all the same, the API answers
 * `state: "pending"` with `attempt: null` at once (freeing its Idempotency-Key), the attempt then
 * appears in the deliveries log, and a keyed retry replays the pending answer (no second event).
 */
describe('webhook test send: bounded wait for the first attempt', () => {
  let h: Harness;
  let server: http.Server;
  let url: string;
  const held: Array<() => void> = [];
  const received: string[] = [];

  beforeAll(async () => {
    // A receiver that holds every request until the test lets it answer.
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        received.push((JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id: string }).id);
        held.push(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok'));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hold`;
    h = await createHarness({ env: { WEBHOOK_TEST_WAIT_MS: '500' } });
  }, 60_000);
  afterAll(async () => {
    for (const release of held.splice(0)) release();
    server?.closeAllConnections();
    await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
    await h?.close();
  });

  it(
    'answers pending while the receiver holds the attempt; the attempt lands in the log; a ' + 'keyed retry replays',
    async () => {
      const rec = await h.recruiter();
      const hook = await h.call({
        method: 'POST',
        url: '/api/v1/webhooks',
        token: rec.token,
        payload: { target_url: url, events: ['match.matched'] },
      });
      expect(hook.statusCode).toBe(201);
      const id = hook.json().id as string;
      const key = randomUUID();
      const send = () =>
        h.call({
          method: 'POST',
          url: `/api/v1/webhooks/${id}/test`,
          token: rec.token,
          headers: { 'idempotency-key': key },
        });

      const first = await send();
      expect(first.statusCode).toBe(200);
      const body = first.json();
      expect(body).toMatchObject({ event: { type: 'webhook.test' }, state: 'pending', attempt: null });
      // The receiver got (or is getting) the event: the delivery went on after the answer.
      await eventually(async () => received.includes(body.event.id) && held.length > 0, 30_000);

      const again = await send();
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect(again.json()).toEqual(body);

      for (const release of held.splice(0)) release();
      const log = await eventually(async () => {
        const res = await h.call({ method: 'GET', url: `/api/v1/webhooks/${id}/deliveries`, token: rec.token });
        const d = (
          res.json().deliveries as Array<{ event_id: string; http_status: number | null; state: string }>
        ).find((x) => x.event_id === body.event.id && x.http_status === 200);
        return d;
      }, 30_000);
      expect(log).toMatchObject({ event_id: body.event.id, http_status: 200 });
      expect(received.filter((e) => e === body.event.id)).toHaveLength(1);
      expect(
        Number(
          (
            await h
              .knex('domain_events')
              .where({ type: 'webhook.test' })
              .whereRaw("data->>'webhook_id' = ?", [id])
              .count({ n: '*' })
          )[0].n,
        ),
      ).toBe(1);
    },
    120_000,
  );
});
