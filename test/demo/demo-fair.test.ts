import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { seedDemoData, openDemoEvents, DEMO_TOKEN_TTL_MS, type DemoFair } from '#apps/demo/src/demo-data';
import { startDemoSimulator } from '#apps/demo/src/demo-simulator';
import { colleagueAccepts, httpAgentJoin } from '#activities/demo/demo-activities';
import { DEMO_COMPANIES, DEMO_SIMULATED_SEEKERS } from '#activities/demo/fair';
import { demoSimulationTotalsQuery } from '#workflows/demo/contract';
import { presetScopes } from '#lib/scopes';
import { hashToken } from '#lib/tokens';
import { appSecret } from '#lib/config';
import {
  DEMO_WEBHOOK_DESCRIPTION,
  demoWebhookSecrets,
  startDemoWebhookReceiver,
  subscribeDemoWebhooks,
} from '#apps/demo/src/demo-webhooks';
import { matchWorkflowId } from '#workflows/matches/contract';
import { queueEntryWorkflowId } from '#workflows/queue/contract';
import { liveEventWorkflowId } from '#workflows/events/contract';
import { webhookSubscriptionWorkflowId } from '#workflows/webhooks/contract';

const UUID_RE = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/i;

/**
 * The living demo of `npm start` (docs/decisions/0151): the seeded fair answers a black-box agent
 * walk at once, and the simulator (a workflow, second-scale ticks here) makes the demo seeker a
 * match that a simulated recruiter accepts, while simulated seekers join and move positions; the
 * demo's webhook receiver gets verified deliveries; offers respect the seeded recruiter availability;
 * the Temporal UI's start summaries name people and jobs.
 */
describe('demo fair', () => {
  let h: Harness;
  let dataDir: string;
  let fair: DemoFair;
  let base: string;
  let sim: Awaited<ReturnType<typeof startDemoSimulator>> | null = null;
  let receiver: Awaited<ReturnType<typeof startDemoWebhookReceiver>>;
  let subscriptionId: string;
  const logged: Array<{ level: string; msg: string }> = [];

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-demo-'));
    h = await createHarness({ env: { DATA_DIR: dataDir, MATCHMAKER_INTERVAL_MS: '200' } });
    // The simulated agents call the public API over HTTP, as every agent does.
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    fair = await seedDemoData(h.app.services, h.config);
    await openDemoEvents(h.app.services, fair);
    // What npm start does next: the demo webhook receiver, and the demo recruiter's team subscribed to it.
    const log = (level: string) => (_obj: object, msg: string) => logged.push({ level, msg });
    receiver = await startDemoWebhookReceiver({
      secrets: demoWebhookSecrets(h.knex, appSecret(h.config)),
      log: { info: log('info'), warn: log('warn'), debug: log('debug') },
    });
    subscriptionId = (await subscribeDemoWebhooks(h.app.services, fair, receiver.url)).id;
  }, 120_000);

  afterAll(async () => {
    await sim?.stop();
    await receiver?.close();
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 90_000);

  it('seeds three live open-invite events of different companies with 5–10 jobs each', async () => {
    const live = await h.call({ method: 'GET', url: '/api/v1/live-events/live-now' });
    expect(live.statusCode).toBe(200);
    const slugs = live
      .json<{ events: Array<{ slug: string }> }>()
      .events.map((e) => e.slug)
      .sort();
    expect(slugs).toEqual(DEMO_COMPANIES.map((c) => c.slug).sort());
    for (const company of DEMO_COMPANIES) {
      const detail = await h.call({ method: 'GET', url: `/api/v1/events/${company.slug}` });
      expect(detail.statusCode).toBe(200);
      const body = detail.json<{ jobs: Array<{ title: string }>; event: { company_name: string } }>();
      expect(body.event.company_name).toBe(company.team);
      expect(body.jobs.length).toBeGreaterThanOrEqual(5);
      expect(body.jobs.length).toBeLessThanOrEqual(10);
    }
  });

  it('reuses the demo tokens across starts: sealed in DATA_DIR, 30-day expiry, preset scopes', async () => {
    const again = await seedDemoData(h.app.services, h.config);
    expect(again.seekerToken).toBe(fair.seekerToken);
    expect(again.recruiterToken).toBe(fair.recruiterToken);
    const sealed = fs.readFileSync(path.join(dataDir, 'demo-tokens.sealed'), 'utf8');
    expect(sealed).not.toContain(fair.seekerToken);
    const row = await h.app.services.deps.repos.tokens.findByHash(hashToken(fair.seekerToken));
    expect(row!.scopes.sort()).toEqual([...presetScopes('seeker-agent')].sort());
    const ttl = row!.expires_at!.getTime() - Date.now();
    expect(ttl).toBeGreaterThan(DEMO_TOKEN_TTL_MS - 60_000);
    expect(ttl).toBeLessThanOrEqual(DEMO_TOKEN_TTL_MS);
    // A revoked token is replaced by a new one at the next start.
    expect(await h.app.services.accounts.tokens.revoke(row!.user_id, row!.id)).toBe(true);
    const third = await seedDemoData(h.app.services, h.config);
    expect(third.seekerToken).not.toBe(fair.seekerToken);
    fair = third;
  });

  it(
    'answers the black-box agent walk right after start: discover → event → search → join → ' + 'status → matches',
    async () => {
      const me = await h.seeker({ profile: { skills: ['Python', 'SQL', 'dbt'] } as never });
      const live = (await h.call({ method: 'GET', url: '/api/v1/live-events/live-now' })).json<{
        events: Array<{ slug: string }>;
      }>();
      expect(live.events.length).toBe(3);
      const event = await h.call({ method: 'GET', url: `/api/v1/events/${live.events[0].slug}` });
      expect(event.statusCode).toBe(200);
      const search = await h.call({ method: 'GET', url: '/api/v1/jobs/search?skills=python', token: me.token });
      expect(search.statusCode).toBe(200);
      const hits = search.json<{ jobs: unknown[] }>().jobs;
      expect(hits.length).toBeGreaterThan(0);
      const join = await h.call({ method: 'POST', url: '/api/v1/queue/join', token: me.token, payload: {} });
      expect(join.statusCode).toBe(200);
      const status = await h.call({ method: 'GET', url: '/api/v1/queue/status', token: me.token });
      expect(status.statusCode).toBe(200);
      // A Python data engineer finds the Northwind data job: a match, made by the matchmaker.
      const matches = await eventually(
        async () => {
          const r = (await h.call({ method: 'GET', url: '/api/v1/matches', token: me.token })).json<{
            matches: unknown[];
          }>();
          return r.matches.length > 0 ? r.matches : null;
        },
        30_000,
        200,
      );
      expect(matches.length).toBe(1);
    },
  );

  it(
    'simulates the fair: the demo seeker gets a match a simulated recruiter accepts, simulated ' +
      'seekers join, within 90 s',
    async () => {
      sim = await startDemoSimulator({
        config: h.config,
        knex: h.knex,
        address: h.config.TEMPORAL_ADDRESS!,
        agentJoin: httpAgentJoin(base),
        tickMs: 300,
        recruiterDelayMs: 300,
        interviewMs: 1500,
      });
      const adaMatch = await eventually(
        async () => {
          const r = (await h.call({ method: 'GET', url: '/api/v1/matches', token: fair.seekerToken })).json<{
            matches: Array<{ id: string }>;
          }>();
          return r.matches[0] ?? null;
        },
        90_000,
        250,
      );
      // The simulated Acme recruiter accepts — unless the match is offered to the demo recruiter,
      // whose matches are hers to accept (DEMO_RECRUITER_KEEPS_OWN_MATCHES); then she does, as a
      // person would in the web app. Ada's own acceptance stays hers (web app).
      const grace = fair.events[0].ownerId;
      const offered = (await h.app.services.deps.repos.matches.findById(adaMatch.id))!;
      if (offered.recruiter_user_id === grace) {
        const handle = sim.client.workflow.getHandle(sim.workflowId);
        const ticks = (await handle.query(demoSimulationTotalsQuery)).ticks;
        await eventually(async () => (await handle.query(demoSimulationTotalsQuery)).ticks >= ticks + 4, 30_000, 100);
        expect((await h.app.services.deps.repos.matches.findById(adaMatch.id))!.recruiter_accepted_at).toBeNull();
        await h.app.services.matches.accept({ userId: grace, matchId: adaMatch.id });
      }
      const accepted = await eventually(
        async () => {
          const row = await h.app.services.deps.repos.matches.findById(adaMatch.id);
          return row?.recruiter_accepted_at && row.status === 'matched' ? row : null;
        },
        30_000,
        250,
      );
      expect(accepted.seeker_accepted_at).toBeNull();
      const ada = await h.app.services.deps.repos.accounts.findUserByEmail(fair.seekerEmail);
      expect(accepted.seeker_user_id).toBe(ada!.id);

      // Simulated seekers join, are matched, accept, interview and complete.
      const simulatedIds = await Promise.all(
        DEMO_SIMULATED_SEEKERS.map(
          async (s) => (await h.app.services.deps.repos.accounts.findUserByEmail(s.email))!.id,
        ),
      );
      await eventually(
        async () => {
          const rows = await h.knex('matches').whereIn('seeker_user_id', simulatedIds).andWhere('status', 'completed');
          return rows.length > 0;
        },
        60_000,
        250,
      );
      const totals = await sim.client.workflow.getHandle(sim.workflowId).query(demoSimulationTotalsQuery);
      expect(totals.joined).toBeGreaterThan(1);
      expect(totals.accepted).toBeGreaterThan(1);
      const description = await sim.client.workflow.getHandle(sim.workflowId).describe();
      expect(description.status.name).toBe('RUNNING');
    },
    150_000,
  );
  it('leaves the matches offered to the demo recruiter to her: simulated colleagues accept only the others', async () => {
    const grace = fair.events[0].ownerId;
    const handle = sim!.client.workflow.getHandle(sim!.workflowId);
    // A match offered to Grace that has been waiting through several simulator steps past the
    // colleagues' delay is still hers to accept; the colleagues have accepted others meanwhile.
    const ticks = (await handle.query(demoSimulationTotalsQuery)).ticks;
    const hers = await eventually(
      async () => {
        const rows = await h.knex('matches').where({ recruiter_user_id: grace, status: 'matched' });
        return rows.length ? rows : null;
      },
      60_000,
      250,
    );
    await eventually(async () => (await handle.query(demoSimulationTotalsQuery)).ticks >= ticks + 4, 30_000, 100);
    for (const m of hers) {
      const now = await h.knex('matches').where({ id: m.id }).first();
      expect(now.recruiter_accepted_at === null || now.recruiter_accepted_by === grace).toBe(true);
    }
    const byColleagues = await h
      .knex('matches')
      .whereNotNull('recruiter_accepted_by')
      .whereNot({ recruiter_accepted_by: grace })
      .andWhere({ team_id: fair.events[0].teamId });
    expect(byColleagues.length).toBeGreaterThan(0);
    for (const m of byColleagues) expect(m.recruiter_user_id).toBe(m.recruiter_accepted_by);
  }, 120_000);
  it("the colleagues' rule: DEMO_RECRUITER_KEEPS_OWN_MATCHES on leaves hers to her, off takes every match", () => {
    const ids = { demoRecruiterId: 'grace' };
    expect(colleagueAccepts({ recruiter_user_id: 'grace' }, { ...ids, keepOwn: true })).toBe(false);
    expect(colleagueAccepts({ recruiter_user_id: 'margaret' }, { ...ids, keepOwn: true })).toBe(true);
    expect(colleagueAccepts({ recruiter_user_id: null }, { ...ids, keepOwn: true })).toBe(true);
    expect(colleagueAccepts({ recruiter_user_id: 'grace' }, { ...ids, keepOwn: false })).toBe(true);
  });
  it(
    're-subscribes the same demo subscription at the next start (new port), re-enabling it if ' + 'it was paused',
    async () => {
      await h.knex('webhook_subscriptions').where({ id: subscriptionId }).update({ status: 'paused' });
      const again = await subscribeDemoWebhooks(h.app.services, fair, receiver.url);
      expect(again.id).toBe(subscriptionId);
      const rows = await h
        .knex('webhook_subscriptions')
        .where({ owner_team_id: fair.events[0].teamId, description: DEMO_WEBHOOK_DESCRIPTION });
      expect(rows).toHaveLength(1);
      expect(rows[0].status).toBe('active');
      expect(rows[0].target_url).toBe(receiver.url);
    },
  );

  it('fires webhooks in the demo: the receiver verifies each delivery and logs one readable line at info', async () => {
    const types = await eventually(
      async () => {
        const seen = new Set(receiver.received.map((d) => d.type));
        return seen.has('match.matched') && seen.has('match.accepted') ? seen : null;
      },
      60_000,
      250,
    );
    expect(types.has('match.matched')).toBe(true);
    expect(receiver.received.every((d) => d.verified && d.subscriptionId === subscriptionId)).toBe(true);
    const infoLines = logged.filter((l) => l.level === 'info');
    expect(infoLines.length).toBeGreaterThanOrEqual(receiver.received.length);
    expect(
      infoLines.some((l) =>
        /^webhook match\.accepted received, signature verified: both sides accepted the match for "[^"]+"/.test(l.msg),
      ),
    ).toBe(true);
    // A forged delivery is refused: the verification is real.
    const forged = await fetch(receiver.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'svc-subscription-id': subscriptionId,
        'svc-signature': `t=${Math.floor(Date.now() / 1000)},v1=${'0'.repeat(64)}`,
      },
      body: JSON.stringify({ id: 'evt_forged', type: 'match.matched', created_at: 0, data: {} }),
    });
    expect(forged.status).toBe(400);
    expect(logged.some((l) => l.level === 'warn' && l.msg.includes('evt_forged'))).toBe(true);
  }, 90_000);

  it(
    'respects the seeded recruiter availability: offers name an available recruiter, never one ' + 'who is away',
    async () => {
      const northwind = DEMO_COMPANIES[1];
      const northwindEvent = fair.events.find((e) => e.slug === northwind.slug)!;
      const byEmail = async (email: string) => (await h.app.services.deps.repos.accounts.findUserByEmail(email))!.id;
      const [away, available] = [
        await byEmail(northwind.owner.email),
        await byEmail(northwind.simulatedRecruiter.email),
      ];
      const seeded = await h.app.services.deps.repos.availability.listForEvent(northwindEvent.eventId);
      expect(seeded.map((r) => [r.user_id, r.available, r.capacity]).sort()).toEqual(
        [
          [away, false, 1],
          [available, true, 2],
        ].sort(),
      );
      const rows = await eventually(
        async () => {
          const r = await h.knex('matches').where({ live_event_id: northwindEvent.eventId });
          return r.length > 0 ? r : null;
        },
        60_000,
        250,
      );
      for (const m of rows) expect(m.recruiter_user_id).toBe(available);
      // Every demo event has availability rows, so every demo match names its recruiter.
      const unnamed = await h
        .knex('matches')
        .whereIn(
          'live_event_id',
          fair.events.map((e) => e.eventId),
        )
        .whereNull('recruiter_user_id');
      expect(unnamed).toHaveLength(0);
    },
    90_000,
  );

  it(
    'names people and jobs in the Temporal UI: start summaries of the match, queue entry, live ' +
      'event and subscription',
    async () => {
      const ada = (await h.app.services.deps.repos.accounts.findUserByEmail(fair.seekerEmail))!;
      const [match] = await h.app.services.deps.repos.matches.listForSeeker(ada.id, 1);
      const acme = DEMO_COMPANIES[0];
      const describe = async (workflowId: string) => {
        const d = await h.temporal.workflow.getHandle(workflowId).describe();
        return { summary: (await d.staticSummary()) ?? '', details: (await d.staticDetails()) ?? '' };
      };
      const m = await describe(matchWorkflowId(match.id));
      expect(m.summary).toContain('Ada Lovelace');
      expect(m.summary).toContain(`"${match.job_title}"`);
      expect(m.summary).toContain(acme.team);
      expect(m.summary).toMatch(new RegExp(`offered to (${acme.owner.name}|${acme.simulatedRecruiter.name})$`));
      expect(m.details).toContain(match.id);
      const q = await describe(queueEntryWorkflowId(ada.id));
      expect(q.summary).toContain(`Ada Lovelace waiting for a match at ${acme.team} (${acme.slug})`);
      const e = await describe(liveEventWorkflowId(fair.events[0].eventId));
      expect(e.summary).toContain(acme.team);
      const w = await describe(webhookSubscriptionWorkflowId(subscriptionId));
      expect(w.summary).toMatch(new RegExp(`^Webhook subscription of ${acme.team} → 127\\.0\\.0\\.1:\\d+`));
      for (const x of [m, q, e, w]) {
        expect(x.summary).not.toContain('@');
        expect(x.details).not.toContain('@');
        // Ids stay in the details and search attributes; a summary names, it does not number.
        expect(x.summary).not.toMatch(UUID_RE);
      }
    },
  );
});
