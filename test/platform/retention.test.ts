import { randomBytes, randomUUID } from 'node:crypto';
import { ConfigError, IDEMPOTENCY_WINDOW_MS, WEBHOOK_DELIVERY_RETENTION_MIN_MS, loadConfig } from '#lib/config';
import { domainMetrics } from '#lib/metrics';
import { createRetentionRepository } from '#db/retention/retention-repository';
import { DEAD_LETTER_HOLD_MS } from '#workflows/webhooks/contract';
import {
  RETENTION_WORKFLOW,
  retentionWorkflowId,
  RETENTION_TABLES,
  type PruneExpiredRowsResult,
} from '#workflows/retention/contract';
import { ensureRetention } from '#workflows/retention/client';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { retentionReport } from '#apps/ops/src/retention-report';

const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const ago = (ms: number) => new Date(Date.now() - ms);

describe('retention settings', () => {
  it('never keeps idempotency keys less than the 24-hour window, nor deliveries less than the dead-letter hold', () => {
    expect(IDEMPOTENCY_WINDOW_MS).toBe(DAY);
    expect(WEBHOOK_DELIVERY_RETENTION_MIN_MS).toBe(DEAD_LETTER_HOLD_MS);
    expect(() => loadConfig({}, { IDEMPOTENCY_KEY_RETENTION_MS: String(DAY - 1) })).toThrow(ConfigError);
    expect(() => loadConfig({}, { WEBHOOK_DELIVERY_RETENTION_MS: String(29 * DAY) })).toThrow(ConfigError);
    const c = loadConfig({}, {});
    expect(c.IDEMPOTENCY_KEY_RETENTION_MS).toBe(DAY);
    expect(c.WEBHOOK_DELIVERY_RETENTION_MS).toBe(30 * DAY);
    expect(loadConfig({}, { IDEMPOTENCY_KEY_RETENTION_MS: String(2 * DAY) }).IDEMPOTENCY_KEY_RETENTION_MS).toBe(
      2 * DAY,
    );
  });
});

describe('retention workflow', () => {
  let h: Harness;
  // Small batches and a small budget per call, so a few dozen rows take several batches and several calls.
  beforeAll(async () => {
    h = await createHarness({
      env: { RETENTION_INTERVAL_MS: '300', RETENTION_BATCH_SIZE: '10', RETENTION_MAX_BATCHES_PER_CALL: '1' },
    });
  }, 60_000);
  afterAll(async () => h?.close());

  it('every batch predicate is served by an index, never a scan of the kept rows', async () => {
    await h.knex.transaction(async (trx) => {
      await trx.raw('SET LOCAL enable_seqscan = off');
      const repo = createRetentionRepository(trx);
      const cutoffs = await repo.cutoffs({
        idempotencyKeysMs: DAY,
        webhookDeliveriesMs: 30 * DAY,
        emailOutboxMs: 30 * DAY,
        expiredMarginMs: DAY,
      });
      const plans = await repo.explainTargets(cutoffs, 1000);
      // No scan of a whole table, and the cutoff itself is the index's condition (a partial index
      // scanned end to end with the cutoff as a filter would read every row that is kept).
      for (const [table, plan] of Object.entries(plans)) {
        const cond = /Index Cond: .*\b(created_at|finished_at|expires_at) </.test(plan);
        expect({ table, seqScan: /Seq Scan/.test(plan), cond }).toEqual({ table, seqScan: false, cond: true });
      }
    });
  });

  it('deletes what is past its retention in batches until done, keeps the rest, and a second pass changes nothing', async () => {
    const s = await h.seeker();
    const token = await h.knex('api_tokens').where({ user_id: s.user.id }).first();
    const before = Object.fromEntries(
      ((await domainMetrics.retentionRowsDeleted.get()).values ?? []).map((v) => [v.labels.table, v.value]),
    ) as Record<string, number>;

    // Idempotency keys: 35 past the window (four batches of 10), two within it.
    const key = (createdAt: Date) => ({
      token_id: token.id,
      key: randomUUID(),
      method: 'POST',
      route: '/api/v1/queue/join',
      request_hash: 'x',
      state: 'completed',
      response_status: 200,
      created_at: createdAt,
    });
    await h.knex('idempotency_keys').insert(Array.from({ length: 35 }, () => key(ago(DAY + HOUR))));
    const keptKeys = [key(ago(DAY - HOUR)), key(ago(HOUR))];
    await h.knex('idempotency_keys').insert(keptKeys);

    // Webhook deliveries: finished ones past 30 days go with their attempts; recent, pending and retrying ones stay.
    const hook = (
      await h.call({
        method: 'POST',
        url: '/api/v1/webhooks',
        token: s.token,
        payload: { target_url: 'http://127.0.0.1:9/hook', events: ['match.matched'] },
        // The token's keys are counted below: only the ones inserted above.
        idempotencyKey: false,
      })
    ).json<{ id: string }>();
    expect(hook.id).toBeTruthy();
    const evt = () => `evt_ret_${randomBytes(6).toString('hex')}`;
    const delivery = (eventId: string, state: string, finishedAt: Date | null, source = 'event') => ({
      subscription_id: hook.id,
      event_id: eventId,
      run: 1,
      event_type: 'match.matched',
      source,
      state,
      attempts: 1,
      finished_at: finishedAt,
      created_at: ago(40 * DAY),
    });
    const old = {
      delivered: delivery(evt(), 'delivered', ago(31 * DAY)),
      deadLetter: delivery(evt(), 'dead_letter', ago(31 * DAY)),
      cancelled: delivery(evt(), 'cancelled', ago(45 * DAY)),
    };
    const kept = {
      recentDelivered: delivery(evt(), 'delivered', ago(29 * DAY)),
      recentDeadLetter: delivery(evt(), 'dead_letter', ago(DAY)),
      pending: delivery(evt(), 'pending', null),
      // A test event's delivery (not swept by the dispatcher), retrying for weeks: never deleted while unfinished.
      retrying: delivery(evt(), 'retrying', null, 'test'),
    };
    await h.knex('webhook_deliveries').insert([...Object.values(old), ...Object.values(kept)]);
    const attempt = (d: { event_id: string }, n: number) => ({
      id: `dlv_ret_${randomBytes(6).toString('hex')}`,
      subscription_id: hook.id,
      event_id: d.event_id,
      run: 1,
      event_type: 'match.matched',
      attempt: n,
      outcome: 'failure',
      attempted_at: ago(31 * DAY),
    });
    await h
      .knex('webhook_delivery_attempts')
      .insert([attempt(old.delivered, 1), attempt(old.delivered, 2), attempt(old.deadLetter, 1)]);
    const keptAttempt = attempt(kept.recentDelivered, 1);
    await h.knex('webhook_delivery_attempts').insert(keptAttempt);

    // Domain events: an old one with no delivery left goes; an old one whose delivery is still retrying stays, as does a new one.
    const event = (id: string, createdAt: Date) => ({ id, type: 'match.matched', data: {}, created_at: createdAt });
    const orphan = event(old.delivered.event_id, ago(40 * DAY));
    await h
      .knex('domain_events')
      .insert([orphan, event(kept.retrying.event_id, ago(40 * DAY)), event(evt(), ago(HOUR))]);

    // The outbox: sent and failed e-mails past 30 days go; a pending one stays however old.
    const mail = (status: string, createdAt: Date) => ({
      id: randomUUID(),
      to_address: 'someone@test.local',
      subject: 's',
      body: 'b',
      kind: 'retention-test',
      status,
      created_at: createdAt,
    });
    const oldMail = [mail('sent', ago(31 * DAY)), mail('failed', ago(31 * DAY))];
    const keptMail = [mail('pending', ago(60 * DAY)), mail('sent', ago(29 * DAY))];
    await h.knex('email_outbox').insert([...oldMail, ...keptMail]);

    // Expired codes, tokens, sessions and sign-up requests: gone a day after they expire, not before.
    const code = (expiresAt: Date) => ({
      code_hash: randomBytes(16).toString('hex'),
      client_id: 'https://client.test/meta',
      client_name: 'c',
      client_origin: 'https://client.test',
      user_id: s.user.id,
      scopes: ['queue:read'],
      resource: 'http://jobfair.test/mcp',
      redirect_uri: 'https://client.test/cb',
      code_challenge: 'x',
      expires_at: expiresAt,
    });
    const oauthToken = (expiresAt: Date) => ({
      token_hash: randomBytes(16).toString('hex'),
      token_id: token.id,
      kind: 'refresh',
      expires_at: expiresAt,
    });
    const session = (expiresAt: Date) => ({
      id: randomBytes(16).toString('hex'),
      user_id: s.user.id,
      expires_at: expiresAt,
    });
    const signup = (expiresAt: Date) => ({
      id: randomUUID(),
      token_hash: randomBytes(16).toString('hex'),
      email: `x-${randomBytes(4).toString('hex')}@test.local`,
      display_name: 'x',
      role: 'seeker',
      password_hash: 'x',
      expires_at: expiresAt,
    });
    const expiredLong = ago(2 * DAY);
    const expiredJust = ago(HOUR);
    const live = new Date(Date.now() + HOUR);
    const codes = [code(expiredLong), code(expiredJust), code(live)];
    const tokens = [oauthToken(expiredLong), oauthToken(expiredJust), oauthToken(live)];
    const sessions = [session(expiredLong), session(expiredJust), session(live)];
    const signups = [signup(expiredLong), signup(expiredJust), signup(live)];
    await h.knex('oauth_codes').insert(codes);
    await h.knex('oauth_tokens').insert(tokens);
    await h.knex('web_sessions').insert(sessions);
    await h.knex('signup_requests').insert(signups);

    const count = async (table: string, where: (q: any) => any) =>
      Number((await where(h.knex(table)).count('* as n'))[0].n);
    const tokenKeys = (q: any) => q.where({ token_id: token.id });
    const hookRows = (q: any) => q.where({ subscription_id: hook.id });

    // The operator's look before: not started, and the backlog per table.
    const ops = { services: h.app.services, temporal: h.temporal };
    const reportBefore = (await retentionReport(ops, h.config)).join('\n');
    expect(reportBefore).toContain('not started');
    expect(reportBefore).toMatch(
      /idempotency_keys 35, webhook_deliveries 3, email_outbox 2, oauth_codes 1, oauth_tokens 1, web_sessions 1, signup_requests 1\./,
    );

    // Started the way every worker starts it; a second start is the same workflow.
    await ensureRetention(h.temporal, h.config);
    await ensureRetention(h.temporal, h.config);
    await eventually(
      async () =>
        (await count('idempotency_keys', tokenKeys)) === 2 &&
        (await count('webhook_deliveries', hookRows)) === 4 &&
        (await count('signup_requests', (q) =>
          q.whereIn(
            'id',
            signups.map((r) => r.id),
          ),
        )) === 2,
      30_000,
    );

    const remaining = async () => ({
      keys: (await tokenKeys(h.knex('idempotency_keys')).pluck('key')).sort(),
      deliveries: (await hookRows(h.knex('webhook_deliveries')).pluck('event_id')).sort(),
      attempts: await hookRows(h.knex('webhook_delivery_attempts')).pluck('id'),
      events: (await h.knex('domain_events').whereIn('id', [orphan.id, kept.retrying.event_id]).pluck('id')).sort(),
      mail: (await h.knex('email_outbox').where({ kind: 'retention-test' }).pluck('id')).sort(),
      codes: (
        await h
          .knex('oauth_codes')
          .whereIn(
            'code_hash',
            codes.map((r) => r.code_hash),
          )
          .pluck('code_hash')
      ).sort(),
      tokens: (
        await h
          .knex('oauth_tokens')
          .whereIn(
            'token_hash',
            tokens.map((r) => r.token_hash),
          )
          .pluck('token_hash')
      ).sort(),
      sessions: (
        await h
          .knex('web_sessions')
          .whereIn(
            'id',
            sessions.map((r) => r.id),
          )
          .pluck('id')
      ).sort(),
      signups: (
        await h
          .knex('signup_requests')
          .whereIn(
            'id',
            signups.map((r) => r.id),
          )
          .pluck('id')
      ).sort(),
    });
    const expected = {
      keys: keptKeys.map((k) => k.key).sort(),
      deliveries: Object.values(kept)
        .map((d) => d.event_id)
        .sort(),
      attempts: [keptAttempt.id],
      events: [kept.retrying.event_id],
      mail: keptMail.map((m) => m.id).sort(),
      codes: codes
        .slice(1)
        .map((r) => r.code_hash)
        .sort(),
      tokens: tokens
        .slice(1)
        .map((r) => r.token_hash)
        .sort(),
      sessions: sessions
        .slice(1)
        .map((r) => r.id)
        .sort(),
      signups: signups
        .slice(1)
        .map((r) => r.id)
        .sort(),
    };
    await eventually(async () => JSON.stringify(await remaining()) === JSON.stringify(expected), 30_000).catch(
      () => undefined,
    );
    expect(await remaining()).toEqual(expected);

    // The rows pruned are counted per table (labels are table names only).
    const after = Object.fromEntries(
      ((await domainMetrics.retentionRowsDeleted.get()).values ?? []).map((v) => [v.labels.table, v.value]),
    ) as Record<string, number>;
    const delta = (t: string) => (after[t] ?? 0) - (before[t] ?? 0);
    expect(delta('idempotency_keys')).toBeGreaterThanOrEqual(35);
    expect(delta('webhook_deliveries')).toBeGreaterThanOrEqual(3);
    expect(delta('webhook_delivery_attempts')).toBeGreaterThanOrEqual(3);
    for (const v of (await domainMetrics.retentionRowsDeleted.get()).values)
      expect(RETENTION_TABLES).toContain(v.labels.table);

    // One workflow, whose calls are bounded: each table's first batch, then one more after a full one.
    // So the 35 keys took two calls: 20, then the call came back at once for the last 15.
    const handle = h.temporal.workflow.getHandle(retentionWorkflowId(h.config.TEMPORAL_TASK_QUEUE));
    expect((await handle.describe()).type).toBe(RETENTION_WORKFLOW);
    const results = async () =>
      ((await handle.fetchHistory()).events ?? [])
        .map((e) => e.activityTaskCompletedEventAttributes?.result?.payloads?.[0]?.data)
        .filter((d): d is Uint8Array => !!d)
        .map((d) => JSON.parse(Buffer.from(d).toString()) as PruneExpiredRowsResult);
    const calls = await results();
    expect(calls.slice(0, 2).map((r) => [r.deleted.idempotency_keys, r.more])).toEqual([
      [20, true],
      [15, false],
    ]);
    const callsNow = calls.length;

    // The operator's look after: running, what it deleted, nothing left past its retention.
    const reportAfter = (await retentionReport(ops, h.config)).join('\n');
    expect(reportAfter).toContain(': running, started');
    expect(reportAfter).toMatch(/deleted so far: idempotency_keys \d+/);
    expect(reportAfter).toContain('Rows past their retention now: none.');

    // Running again is harmless: later passes find nothing more and keep what they kept.
    await eventually(async () => (await results()).length >= callsNow + 2, 30_000);
    expect(await remaining()).toEqual(expected);
  }, 90_000);
});
