import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { createHarness, eventually, type Harness, type TestUser } from '../helpers/harness';
import { exitOf, processEnv, startApi, type RunningProcess } from '../helpers/processes';
import { createJob, liveEvent } from '../events/helpers';

/**
 * A keyed join whose answer was lost (decision 0200): the API process is killed (SIGKILL) after the
 * join took effect and before its answer was stored, the entry gets matched meanwhile, and the
 * retry with the same Idempotency-Key answers 200 with the same queue id — the first answer — not
 * 409 QUEUE_ENTRY_MATCHED, and no second entry. The "between" is held by a test-only trigger on
 * `idempotency_keys` (as in test/platform/idempotency-crash.test.ts), not by a hook in the product.
 */
const HOLD_LOCK = 7_770_200;

describe('keyed queue join: a lost answer is replayed after the entry was matched', () => {
  let h: Harness;
  let rec: TestUser;
  let hold: PgClient;
  let api: RunningProcess | undefined;
  let env: Record<string, string>;
  let base: string;

  beforeAll(async () => {
    h = await createHarness();
    rec = await h.recruiter();
    await h.knex.raw(`
      CREATE FUNCTION test_hold_join_answer() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_advisory_xact_lock(${HOLD_LOCK}); RETURN NEW; END $$;
      CREATE TRIGGER test_hold_join_answer BEFORE UPDATE ON idempotency_keys
        FOR EACH ROW WHEN (NEW.state = 'completed') EXECUTE FUNCTION test_hold_join_answer();
    `);
    hold = new PgClient({ connectionString: h.dbUrl });
    await hold.connect();
    ({ env, base } = await processEnv(h));
    api = await startApi(env, base);
  }, 120_000);

  afterAll(async () => {
    if (api && api.exitCode === null) api.kill('SIGKILL');
    await hold?.end();
    await h?.close();
  });

  const blockedBackends = async () =>
    (
      await h.knex.raw(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = ' +
          "'Lock' AND wait_event = 'advisory'",
      )
    ).rows as Array<{ pid: number }>;

  it('answers 200 with the same queue id, one entry, then replays', async () => {
    const ev = await liveEvent(h, rec, { interview_slots: 1 });
    await createJob(h, rec, ev.id, { title: 'Keyed join engineer', essential_skills: ['TypeScript'] });
    const seeker = await h.seeker();
    const key = randomUUID();
    const join = () =>
      fetch(`${base}/api/v1/queue/join`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${seeker.token}`,
          'idempotency-key': key,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ live_event_slug: ev.slug }),
      });
    const entries = () => h.knex('queue_entries').where({ user_id: seeker.user.id }).select('id', 'status', 'match_id');

    await hold.query('SELECT pg_advisory_lock($1)', [HOLD_LOCK]);
    let pending: Promise<unknown> | undefined;
    try {
      pending = join().then(
        (r) => r.text(),
        () => undefined, // the process dies before answering
      );
      // The entry exists; storing the join's answer waits on our lock.
      await eventually(async () => (await entries()).length === 1 && (await blockedBackends()).length > 0, 30_000);
      api!.kill('SIGKILL');
      await exitOf(api!);
      for (const b of await blockedBackends()) await h.knex.raw('SELECT pg_terminate_backend(?)', [b.pid]);
    } finally {
      await hold.query('SELECT pg_advisory_unlock($1)', [HOLD_LOCK]);
    }
    await pending;
    expect((await h.knex('idempotency_keys').where({ key }).first()).state).toBe('in_progress');
    const [entry] = await entries();

    // The matchmaker (the harness's worker) matches the entry while the API is down.
    await eventually(async () => (await entries())[0]?.status === 'matched', 60_000);

    api = await startApi(env, base);
    let res: Response;
    const deadline = Date.now() + 15_000;
    for (;;) {
      res = await join();
      if (res.status !== 409 || Date.now() > deadline) break;
      const body = (await res.clone().json()) as { code?: string };
      if (body.code !== 'IDEMPOTENCY_KEY_IN_USE') break;
      await sleep(100);
    }
    const answer = (await res.json()) as { queue_id: string; status: string; match_id: string | null; code?: string };
    expect({ status: res.status, code: answer.code }).toEqual({ status: 200, code: undefined });
    expect(answer).toMatchObject({ queue_id: entry.id, status: 'waiting', live_event_slug: ev.slug, match_id: null });
    // One entry, still matched: the retry changed nothing.
    expect(await entries()).toEqual([expect.objectContaining({ id: entry.id, status: 'matched' })]);

    // The answer is stored now: the next retry is a replay of it.
    const again = await join();
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(answer);

    // A join with a new key still says what the entry is: matched (decision 0121).
    const fresh = await fetch(`${base}/api/v1/queue/join`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${seeker.token}`,
        'idempotency-key': randomUUID(),
        'content-type': 'application/json',
      },
      body: JSON.stringify({ live_event_slug: ev.slug }),
    });
    expect(fresh.status).toBe(409);
    expect(((await fresh.json()) as { code: string }).code).toBe('QUEUE_ENTRY_MATCHED');
  }, 180_000);
});
