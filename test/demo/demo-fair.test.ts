import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { seedDemoData, openDemoEvents, DEMO_TOKEN_TTL_MS, type DemoFair } from '../../scripts/demo-data';
import { startDemoSimulator } from '../../scripts/demo-simulator';
import { httpAgentJoin } from '../../activities/demo/demo-activities';
import { DEMO_COMPANIES, DEMO_SIMULATED_SEEKERS } from '../../activities/demo/fair';
import { demoSimulationTotalsQuery } from '../../workflows/demo/contract';
import { presetScopes } from '../../lib/scopes';
import { hashToken } from '../../lib/tokens';

/**
 * The living demo of `npm start` (docs/decisions/0151): the seeded fair answers a black-box agent
 * walk at once, and the simulator (a workflow, second-scale ticks here) makes the demo seeker a
 * match that a simulated recruiter accepts, while simulated seekers join and move positions.
 */
describe('demo fair', () => {
  let h: Harness;
  let dataDir: string;
  let fair: DemoFair;
  let base: string;
  let sim: Awaited<ReturnType<typeof startDemoSimulator>> | null = null;

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-demo-'));
    h = await createHarness({ env: { DATA_DIR: dataDir, MATCHMAKER_INTERVAL_MS: '200' } });
    // The simulated agents call the public API over HTTP, as every agent does.
    await h.app.listen({ host: '127.0.0.1', port: 0 });
    base = `http://127.0.0.1:${(h.app.server.address() as AddressInfo).port}`;
    fair = await seedDemoData(h.app.services, h.config);
    await openDemoEvents(h.app.services, fair);
  }, 120_000);

  afterAll(async () => {
    await sim?.stop();
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }, 90_000);

  it('seeds three live open-invite events of different companies with 5–10 jobs each', async () => {
    const live = await h.call({ method: 'GET', url: '/api/v1/live-events/live-now' });
    expect(live.statusCode).toBe(200);
    const slugs = live.json<{ events: Array<{ slug: string }> }>().events.map((e) => e.slug).sort();
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

  it('answers the black-box agent walk right after start: discover → event → search → join → status → matches', async () => {
    const me = await h.seeker({ profile: { skills: ['Python', 'SQL', 'dbt'] } as never });
    const live = (await h.call({ method: 'GET', url: '/api/v1/live-events/live-now' })).json<{ events: Array<{ slug: string }> }>();
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
    const matches = await eventually(async () => {
      const r = (await h.call({ method: 'GET', url: '/api/v1/matches', token: me.token })).json<{ matches: unknown[] }>();
      return r.matches.length > 0 ? r.matches : null;
    }, 30_000, 200);
    expect(matches.length).toBe(1);
  });

  it('simulates the fair: the demo seeker gets a match a simulated recruiter accepts, simulated seekers join, within 90 s', async () => {
    sim = await startDemoSimulator({ config: h.config, knex: h.knex, address: h.config.TEMPORAL_ADDRESS!, agentJoin: httpAgentJoin(base), tickMs: 300, recruiterDelayMs: 300, interviewMs: 1500 });
    const adaMatch = await eventually(
      async () => {
        const r = (await h.call({ method: 'GET', url: '/api/v1/matches', token: fair.seekerToken })).json<{ matches: Array<{ id: string }> }>();
        return r.matches[0] ?? null;
      },
      90_000,
      250,
    );
    // The simulated Acme recruiter accepts; Ada's own acceptance stays hers (web app).
    const accepted = await eventually(async () => {
      const row = await h.app.services.deps.repos.matches.findById(adaMatch.id);
      return row?.recruiter_accepted_at && row.status === 'matched' ? row : null;
    }, 30_000, 250);
    expect(accepted.seeker_accepted_at).toBeNull();
    const ada = await h.app.services.deps.repos.accounts.findUserByEmail(fair.seekerEmail);
    expect(accepted.seeker_user_id).toBe(ada!.id);

    // Simulated seekers join, are matched, accept, interview and complete.
    const simulatedIds = await Promise.all(DEMO_SIMULATED_SEEKERS.map(async (s) => (await h.app.services.deps.repos.accounts.findUserByEmail(s.email))!.id));
    await eventually(async () => {
      const rows = await h.knex('matches').whereIn('seeker_user_id', simulatedIds).andWhere('status', 'completed');
      return rows.length > 0;
    }, 60_000, 250);
    const totals = await sim.client.workflow.getHandle(sim.workflowId).query(demoSimulationTotalsQuery);
    expect(totals.joined).toBeGreaterThan(1);
    expect(totals.accepted).toBeGreaterThan(1);
    const description = await sim.client.workflow.getHandle(sim.workflowId).describe();
    expect(description.status.name).toBe('RUNNING');
  }, 150_000);
});
