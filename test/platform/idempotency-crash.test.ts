import { setTimeout as sleep } from 'node:timers/promises';
import { randomUUID } from 'node:crypto';
import { Client as PgClient } from 'pg';
import { createHarness, eventually, type Harness, type TestUser } from '../helpers/harness';
import { exitOf, processEnv, startApi, type RunningProcess } from '../helpers/processes';
import { createEvent, createJob } from '../events/helpers';
import { startReceiver, type Receiver } from '../webhooks/helpers';
import { deriveWebhookSecret, hashWebhookSecret } from '#domain/webhooks/secrets';

/**
 * Crash-safe idempotency (decisions 0160, 0161), with real processes: for every route that writes
 * PostgreSQL directly, the API process is killed (SIGKILL) after the route's write committed and
 * before its answer was stored, a new API process starts, the client retries with the same
 * Idempotency-Key, and the test finds exactly one effect — and the retry answered within 5 s of
 * the new process being ready (the dead process's claim is free at once, not after a timeout).
 *
 * The "between" is made deterministic without any hook in the product: a test-only trigger makes
 * the UPDATE that stores the answer wait for an advisory lock the test holds.
 */
const HOLD_LOCK = 7_770_016;

interface Case {
  name: string;
  /** The success status of the route. */
  status: number;
  request: () => Promise<{ method: string; path: string; body?: unknown }>;
  /** Effects counted in PostgreSQL (and elsewhere) for this case. */
  effects: () => Promise<number>;
  check?: (answer: any) => Promise<void>;
}

describe('idempotency survives a kill -9 between the side effect and the stored answer', () => {
  let h: Harness;
  let rec: TestUser;
  let hold: PgClient;
  let api: RunningProcess | undefined;
  let env: Record<string, string>;
  let base: string;
  let receiver: Receiver;

  beforeAll(async () => {
    h = await createHarness();
    rec = await h.recruiter();
    receiver = await startReceiver();
    await h.knex.raw(`
      CREATE FUNCTION test_hold_completion() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN PERFORM pg_advisory_xact_lock(${HOLD_LOCK}); RETURN NEW; END $$;
      CREATE TRIGGER test_hold_completion BEFORE UPDATE ON idempotency_keys
        FOR EACH ROW WHEN (NEW.state = 'completed') EXECUTE FUNCTION test_hold_completion();
    `);
    hold = new PgClient({ connectionString: h.dbUrl });
    await hold.connect();
    ({ env, base } = await processEnv(h));
    api = await startApi(env, base);
  }, 120_000);

  afterAll(async () => {
    if (api && api.exitCode === null) api.kill('SIGKILL');
    await hold?.end();
    await receiver?.close();
    await h?.close();
  });

  const send = (c: { method: string; path: string; body?: unknown }, key: string) =>
    fetch(`${base}/api/v1${c.path}`, {
      method: c.method,
      headers: {
        authorization: `Bearer ${rec.token}`,
        'idempotency-key': key,
        ...(c.body !== undefined ? { 'content-type': 'application/json' } : {}),
      },
      body: c.body !== undefined ? JSON.stringify(c.body) : undefined,
    });

  const blockedBackends = async () =>
    (
      await h.knex.raw(
        'SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = ' +
          "'Lock' AND wait_event = 'advisory'",
      )
    ).rows as Array<{ pid: number }>;

  let eventId: string;
  let webhook: { id: string; secret: string };
  const webhookSalt = async () =>
    (await h.knex('webhook_subscriptions').where({ id: webhook.id }).first()) as {
      secret_salt: string;
      previous_secret_salt: string | null;
      secret_hash: string;
    };

  const cases: Case[] = [
    {
      name: 'POST /jobs',
      status: 201,
      request: async () => {
        eventId = (await createEvent(h, rec)).id;
        return {
          method: 'POST',
          path: '/jobs',
          body: { live_event_id: eventId, title: 'Crash-safe engineer', essential_skills: ['TypeScript'] },
        };
      },
      effects: async () =>
        Number(
          (await h.knex('jobs').where({ live_event_id: eventId, title: 'Crash-safe engineer' }).count({ n: '*' }))[0].n,
        ),
      check: async (a) => expect(await h.knex('jobs').where({ id: a.job.id }).first()).toBeDefined(),
    },
    {
      name: 'POST /live-events',
      status: 201,
      request: async () => ({
        method: 'POST',
        path: '/live-events',
        body: { slug: 'crash-safe-fair', company_name: 'Acme', visibility: 'open_invite' },
      }),
      effects: async () =>
        Number(
          (
            await h
              .knex('live_events')
              .where({ team_id: rec.teamId, company_name: 'Acme' })
              .whereLike('slug', 'crash-safe-fair%')
              .count({ n: '*' })
          )[0].n,
        ),
      check: async (a) => expect(a.event.slug).toBe('crash-safe-fair'),
    },
    {
      name: 'POST /team/invites',
      status: 201,
      request: async () => ({
        method: 'POST',
        path: '/team/invites',
        body: { email: 'crash.invitee@test.local', role: 'member' },
      }),
      // The invite and its e-mail: a second e-mail would be a second effect.
      effects: async () =>
        Number(
          (
            await h
              .knex('team_invites')
              .where({ team_id: rec.teamId, email: 'crash.invitee@test.local' })
              .count({ n: '*' })
          )[0].n,
        ) +
        Number(
          (await h.knex('email_outbox').where({ to_address: 'crash.invitee@test.local' }).count({ n: '*' }))[0].n,
        ) -
        1,
      check: async (a) => expect(a.invite.status).toBe('pending'),
    },
    {
      name: 'POST /webhooks',
      status: 201,
      request: async () => ({
        method: 'POST',
        path: '/webhooks',
        body: { target_url: receiver.url('/crash'), events: ['match.matched'] },
      }),
      effects: async () =>
        Number(
          (
            await h
              .knex('webhook_subscriptions')
              .where({ owner_team_id: rec.teamId, target_url: receiver.url('/crash') })
              .count({ n: '*' })
          )[0].n,
        ),
      check: async (a) => {
        webhook = { id: a.id, secret: a.secret };
        // The retry's secret is the one the stored subscription signs with.
        expect(hashWebhookSecret(a.secret)).toBe((await webhookSalt()).secret_hash);
        await eventually(
          async () =>
            (await h.temporal.workflow.getHandle(`webhook-subscription:${a.id}`).describe()).status.name === 'RUNNING',
        );
      },
    },
    {
      name: 'POST /webhooks/:id/test',
      status: 200,
      request: async () => ({ method: 'POST', path: `/webhooks/${webhook.id}/test` }),
      effects: async () =>
        Number(
          (
            await h
              .knex('domain_events')
              .where({ type: 'webhook.test' })
              .whereRaw("data->>'webhook_id' = ?", [webhook.id])
              .count({ n: '*' })
          )[0].n,
        ),
      check: async (a) => {
        expect(a.state).toBe('delivered');
        expect(receiver.received.filter((r) => r.json.type === 'webhook.test').length).toBe(1);
      },
    },
    {
      name: 'POST /webhooks/:id/rotate-secret',
      status: 200,
      request: async () => {
        webhook.secret = deriveWebhookSecret(h.config.APP_SECRET!, webhook.id, (await webhookSalt()).secret_salt);
        return { method: 'POST', path: `/webhooks/${webhook.id}/rotate-secret` };
      },
      // One rotation: the secret before it is still the previous one (a second rotation would retire it).
      effects: async () => {
        const row = await webhookSalt();
        return row.previous_secret_salt &&
          deriveWebhookSecret(h.config.APP_SECRET!, webhook.id, row.previous_secret_salt) === webhook.secret
          ? 1
          : 2;
      },
      check: async (a) => expect(hashWebhookSecret(a.secret)).toBe((await webhookSalt()).secret_hash),
    },
  ];

  it.each(cases.map((c) => [c.name, c] as const))(
    '%s: one effect, and the keyed retry answers within 5 s of recovery',
    async (_name, c) => {
      const req = await c.request();
      const key = randomUUID();
      await hold.query('SELECT pg_advisory_lock($1)', [HOLD_LOCK]);
      let pending: Promise<string | undefined> | undefined;
      try {
        pending = send(req, key).then(
          async (r) => `${r.status} ${await r.text()}`,
          () => undefined, // the process dies before answering
        );
        // The write committed; storing the answer waits on our lock.
        await eventually(async () => (await c.effects()) >= 1 && (await blockedBackends()).length > 0, 30_000).catch(
          async (err: Error) => {
            const early = await Promise.race([pending, sleep(100, 'no answer')]);
            throw new Error(
              `${err.message}; answer ${String(early)}; effects ${await c.effects()}, blocked ` +
                `${(await blockedBackends()).length}; API output:\n${api!.output()}`,
            );
          },
        );
        api!.kill('SIGKILL');
        await exitOf(api!);
        // The dead process's database session goes too (its socket closed): end the waiting one now.
        for (const b of await blockedBackends()) await h.knex.raw('SELECT pg_terminate_backend(?)', [b.pid]);
      } finally {
        await hold.query('SELECT pg_advisory_unlock($1)', [HOLD_LOCK]);
      }
      await pending;
      expect(await c.effects()).toBe(1);
      const row = await h.knex('idempotency_keys').where({ key }).first();
      expect(row.state).toBe('in_progress'); // the answer was never stored

      api = await startApi(env, base);
      const ready = Date.now();
      let res: Response;
      for (;;) {
        res = await send(req, key);
        if (res.status !== 409 || Date.now() - ready > 5_000) break;
        await sleep(100);
      }
      const answer = await res.json();
      expect({ status: res.status, took: Date.now() - ready <= 5_000 }).toEqual({ status: c.status, took: true });
      expect(await c.effects()).toBe(1);
      await c.check?.(answer);
      // And the answer is stored now: another retry is a replay.
      const again = await send(req, key);
      expect(again.headers.get('idempotent-replayed')).toBe('true');
      expect(await again.json()).toEqual(answer);
      expect(await c.effects()).toBe(1);
    },
    120_000,
  );
});
