import { randomUUID } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { LEASE_LOCK_CLASS } from '#apps/api/src/plugins/process-lease';

/**
 * Key leases (decision 0161): an in-progress claim blocks its key only while the process holding
 * it is alive in PostgreSQL's eyes (its lease session holds the advisory lock of the claim's epoch).
 */
describe('idempotency key leases', () => {
  let h: Harness;
  let other: PgClient;
  const LIVE_EPOCH = 424_242;

  beforeAll(async () => {
    h = await createHarness({ worker: false });
    // Another "API process" that is alive: it holds its lease lock.
    other = new PgClient({ connectionString: h.dbUrl });
    await other.connect();
    await other.query('SELECT pg_advisory_lock($1, $2)', [LEASE_LOCK_CLASS, LIVE_EPOCH]);
  });
  afterAll(async () => {
    await other?.end();
    await h?.close();
  });

  /** A keyed PATCH /profile whose claim is then turned back into "in progress, owned by `owner`". */
  async function orphanedClaim(owner: number | null) {
    const s = await h.seeker();
    const key = randomUUID();
    const req = {
      method: 'PATCH' as const,
      url: '/api/v1/profile',
      token: s.token,
      payload: { title: 'Lease Engineer' },
      headers: { 'idempotency-key': key },
    };
    expect((await h.call(req)).statusCode).toBe(200);
    await h
      .knex('idempotency_keys')
      .where({ key })
      .update({
        state: 'in_progress',
        response_status: null,
        response_body: null,
        lease_owner: owner,
        locked_until: h.knex.raw("clock_timestamp() + interval '1 hour'"),
      });
    return req;
  }

  it('a claim of a live process answers 409 IDEMPOTENCY_KEY_IN_USE', async () => {
    const res = await h.call(await orphanedClaim(LIVE_EPOCH));
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('IDEMPOTENCY_KEY_IN_USE');
    expect(res.headers['retry-after']).toBe('1');
  });

  it('a claim whose process is gone (no session holds its epoch) is taken over at once', async () => {
    const res = await h.call(await orphanedClaim(LIVE_EPOCH + 1));
    expect(res.statusCode).toBe(200);
    expect(res.headers['idempotent-replayed']).toBeUndefined();
  });

  it(
    'when this process loses its database session it reconnects with a new epoch, and its old ' + 'claims are free',
    async () => {
      const epochOf = async () =>
        (
          await h.knex.raw(
            'SELECT l.objid::int AS epoch FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid ' +
              "WHERE l.locktype = 'advisory' AND l.classid = ? AND a.application_name = " +
              "'jobfair-api-lease' AND a.datname = current_database()",
            [LEASE_LOCK_CLASS],
          )
        ).rows.map((r: { epoch: number }) => r.epoch) as number[];
      const [before] = await eventually(async () => {
        const e = await epochOf();
        return e.length === 1 && e;
      });
      const req = await orphanedClaim(before);
      expect((await h.call(req)).statusCode).toBe(409);
      // What a PostgreSQL restart does to the session (the pool reconnects on its own).
      await h.knex.raw(
        'SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = ' +
          "'jobfair-api-lease' AND datname = current_database()",
      );
      const [after] = await eventually(async () => {
        const e = await epochOf();
        return e.length === 1 && e[0] !== before && e;
      }, 5_000);
      expect(after).not.toBe(before);
      const res = await h.call(req);
      expect(res.statusCode).toBe(200);
    },
  );
});
