import { randomUUID } from 'node:crypto';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { Client } from '@modelcontextprotocol/client';
import { createHarness, eventually, type Harness, type TestUser } from '../../helpers/harness';
import { startReceiver, type Receiver } from '../../webhooks/helpers';
import { uniqueSlug } from '../../events/helpers';
import { join, matchOf } from '../../matches/fixtures';
import { httpClient, listen } from './helpers';

type Who = 'rec' | 'seeker' | 'leaver' | 'anon';
type Args = Record<string, unknown>;
type Result = Awaited<ReturnType<Client['callTool']>>;
interface Case {
  tool: string;
  as: Who;
  args?: (c: Ctx) => Args | Promise<Args>;
  /** Keeps what later cases need from this one's structured result. */
  then?: (r: Record<string, any>, c: Ctx) => void | Promise<void>;
}
interface Ctx {
  h: Harness;
  rx: Receiver;
  rec: TestUser;
  seeker: TestUser;
  leaver: TestUser;
  eventId: string;
  slug: string;
  jobId: string;
  matchId: string;
  declineMatchId: string;
  hookId: string;
  deliveryId: string;
  inviteId: string;
  checkoutId: string;
}

const key = () => ({ idempotency_key: randomUUID() });

/**
 * One case per MCP tool, in an order that builds a whole fair: an event and its job go live, a seeker
 * joins and is matched, both accept (the web's use case), a second match is declined, webhooks deliver,
 * fail and are replayed, a checkout is paid and a plan charged off-session; then the closing moves.
 */
const CASES: Case[] = [
  { tool: 'svc_api_changelog_get', as: 'anon' },
  { tool: 'svc_billing_plans_list', as: 'anon' },
  {
    tool: 'svc_live_event_create',
    as: 'rec',
    args: () => ({
      slug: uniqueSlug('mcp'),
      company_name: 'Acme',
      headline: 'Typed results',
      visibility: 'open_invite',
      interview_slots: 3,
      ...key(),
    }),
    then: (r, c) => {
      c.eventId = r.event.id;
      c.slug = r.event.slug;
    },
  },
  { tool: 'svc_team_live_event_update', as: 'rec', args: (c) => ({ eventId: c.eventId, headline: 'Now', ...key() }) },
  {
    tool: 'svc_job_create',
    as: 'rec',
    args: (c) => ({
      live_event_id: c.eventId,
      title: 'Backend Engineer',
      essential_skills: ['TypeScript'],
      salary_min: 50000,
      salary_max: 90000,
      remote_preference: 'remote',
      ...key(),
    }),
    then: (r, c) => {
      c.jobId = r.job.id;
    },
  },
  { tool: 'svc_live_event_go', as: 'rec', args: (c) => ({ eventId: c.eventId, ...key() }) },
  { tool: 'svc_event_pause', as: 'rec', args: (c) => ({ eventId: c.eventId, ...key() }) },
  { tool: 'svc_event_resume', as: 'rec', args: (c) => ({ eventId: c.eventId, ...key() }) },
  { tool: 'svc_event_matching_settings_get', as: 'rec', args: (c) => ({ eventId: c.eventId }) },
  {
    tool: 'svc_event_matching_settings_update',
    as: 'rec',
    args: (c) => ({ eventId: c.eventId, allow_remote_mismatch: true, ...key() }),
  },
  {
    tool: 'svc_my_availability_set',
    as: 'rec',
    args: (c) => ({ eventId: c.eventId, available: true, capacity: 3, ...key() }),
  },
  { tool: 'svc_live_now_events_list', as: 'anon' },
  { tool: 'svc_public_live_events_list', as: 'anon', args: () => ({ limit: 5 }) },
  { tool: 'svc_public_event_get', as: 'anon', args: (c) => ({ slug: c.slug }) },
  { tool: 'svc_jobs_search', as: 'anon', args: () => ({ skills: 'TypeScript' }) },
  { tool: 'svc_profile_get', as: 'seeker' },
  {
    tool: 'svc_profile_update',
    as: 'seeker',
    args: () => ({ skills: ['TypeScript', 'PostgreSQL'], experience_years: 4, ...key() }),
  },
  { tool: 'svc_jobs_compare', as: 'seeker', args: (c) => ({ jobId: c.jobId, ...key() }) },
  {
    tool: 'svc_queue_join',
    as: 'seeker',
    args: (c) => ({ live_event_slug: c.slug, ...key() }),
    then: async (_r, c) => {
      c.matchId = (await matchOf(c.h, c.seeker.user.id)).id;
    },
  },
  { tool: 'svc_queue_status', as: 'seeker' },
  { tool: 'svc_matches_list', as: 'seeker', args: () => ({ limit: 10 }) },
  {
    tool: 'svc_interview_room_url_get',
    as: 'seeker',
    args: async (c) => {
      // Accepting is for people, in the web app: the same use case its pages call.
      await c.h.app.services.matches.accept({ userId: c.seeker.user.id, matchId: c.matchId });
      await c.h.app.services.matches.accept({ userId: c.rec.user.id, matchId: c.matchId });
      return { id: c.matchId };
    },
  },
  {
    tool: 'svc_match_decline',
    as: 'rec',
    args: async (c) => {
      const other = await c.h.seeker();
      await join(c.h, other, c.slug);
      c.declineMatchId = (await matchOf(c.h, other.user.id)).id;
      return { matchId: c.declineMatchId, reason: 'The role was filled', reason_code: 'timing', ...key() };
    },
  },
  { tool: 'svc_team_live_events_list', as: 'rec', args: () => ({ limit: 5 }) },
  { tool: 'svc_team_live_event_get', as: 'rec', args: (c) => ({ eventId: c.eventId }) },
  { tool: 'svc_team_jobs_list', as: 'rec', args: (c) => ({ live_event_id: c.eventId }) },
  { tool: 'svc_team_job_get', as: 'rec', args: (c) => ({ jobId: c.jobId }) },
  { tool: 'svc_team_job_update', as: 'rec', args: (c) => ({ jobId: c.jobId, location: 'Berlin', ...key() }) },
  { tool: 'svc_candidates_list', as: 'rec' },
  { tool: 'svc_candidate_get', as: 'rec', args: (c) => ({ userId: c.seeker.user.id }) },
  {
    tool: 'svc_candidate_note_put',
    as: 'rec',
    args: (c) => ({ userId: c.seeker.user.id, note: 'Strong on PostgreSQL', rating: 4, ...key() }),
  },
  { tool: 'svc_settings_get', as: 'rec' },
  { tool: 'svc_settings_update', as: 'rec', args: () => ({ team: { default_event_visibility: 'private' }, ...key() }) },
  {
    tool: 'svc_team_invite_create',
    as: 'rec',
    args: () => ({ email: `invitee-${randomUUID().slice(0, 8)}@test.local`, role: 'member', ...key() }),
    then: (r, c) => {
      c.inviteId = r.invite.id;
    },
  },
  { tool: 'svc_team_invites_list', as: 'rec' },
  { tool: 'svc_team_invite_revoke', as: 'rec', args: (c) => ({ inviteId: c.inviteId, ...key() }) },
  {
    tool: 'svc_webhook_create',
    as: 'rec',
    args: (c) => ({ target_url: c.rx.url('/fails'), events: ['match.matched'], description: 'MCP test', ...key() }),
    then: (r, c) => {
      c.hookId = r.id;
    },
  },
  { tool: 'svc_webhooks_list', as: 'rec' },
  { tool: 'svc_webhook_get', as: 'rec', args: (c) => ({ id: c.hookId }) },
  {
    tool: 'svc_webhook_test',
    as: 'rec',
    args: (c) => ({ id: c.hookId, ...key() }),
    then: async (r, c) => {
      // The receiver answers 500 on /fails: the short retry schedule dead-letters the test event.
      const eventId = r.event.id as string;
      c.deliveryId = await eventually(async () => {
        const row = await c.h
          .knex('webhook_deliveries')
          .where({ event_id: eventId, state: 'dead_letter' })
          .first()
          .catch(() => undefined);
        return row ? eventId : null;
      }, 30_000);
    },
  },
  { tool: 'svc_webhook_deliveries_list', as: 'rec', args: (c) => ({ id: c.hookId }) },
  {
    tool: 'svc_webhook_update',
    as: 'rec',
    args: (c) => ({ id: c.hookId, target_url: c.rx.url('/works'), ...key() }),
  },
  {
    tool: 'svc_webhook_delivery_replay',
    as: 'rec',
    args: (c) => ({ id: c.hookId, deliveryId: c.deliveryId, ...key() }),
  },
  {
    tool: 'svc_webhook_dead_letters_replay',
    as: 'rec',
    args: (c) => ({ id: c.hookId, since: new Date(Date.now() - 3_600_000).toISOString(), ...key() }),
  },
  { tool: 'svc_webhook_secret_rotate', as: 'rec', args: (c) => ({ id: c.hookId, ...key() }) },
  { tool: 'svc_billing_status_get', as: 'rec' },
  {
    tool: 'svc_billing_checkout_create',
    as: 'rec',
    args: () => ({ mode: 'hosted', plan: 'pro', interval: 'month', ...key() }),
    then: async (r, c) => {
      // The person pays on the provider's page (the local provider's calls, as its page makes them).
      const paid = await c.h.app.services.localPayments!.pay(r.id, '4242 4242 4242 4242');
      await c.h.app.services.billing.deliverLocalEvent(paid.event);
      await eventually(async () => {
        const b = (await c.h.call({ method: 'GET', url: '/api/v1/billing/status', token: c.rec.token })).json();
        return b.billing.plan === 'pro' && b.billing.off_session_consent;
      });
    },
  },
  { tool: 'svc_billing_invoices_list', as: 'rec' },
  {
    tool: 'svc_billing_off_session_charge',
    as: 'rec',
    args: () => ({ target_plan: 'enterprise', interval: 'month', ...key() }),
  },
  { tool: 'svc_billing_plan_cancel', as: 'rec', args: () => key() },
  {
    tool: 'svc_queue_leave',
    as: 'leaver',
    args: async (c) => {
      await join(c.h, c.leaver, c.slug);
      return key();
    },
  },
  { tool: 'svc_team_job_close', as: 'rec', args: (c) => ({ jobId: c.jobId, ...key() }) },
  { tool: 'svc_webhook_delete', as: 'rec', args: (c) => ({ id: c.hookId, ...key() }) },
  { tool: 'svc_event_end', as: 'rec', args: (c) => ({ eventId: c.eventId, ...key() }) },
];

/** The REST error envelope, as every tool error carries it in `_meta['jobfair/error']`. */
const ENVELOPE = {
  type: 'object',
  properties: { error: { type: 'string', minLength: 1 }, code: { type: 'string', pattern: '^[A-Z_]+$' }, details: {} },
  required: ['error', 'code'],
};

describe('MCP typed results: every tool, called through the official client, answers what its outputSchema says', () => {
  let h: Harness;
  let base: string;
  let rx: Receiver;
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const clients: Client[] = [];
  const as: Partial<Record<Who, Client>> = {};
  const ctx = {} as Ctx;
  let listed: Map<string, { outputSchema?: Record<string, unknown> }>;

  beforeAll(async () => {
    rx = await startReceiver((r) => ({ status: r.url === '/fails' ? 500 : 204 }));
    h = await createHarness({
      env: {
        MATCHMAKER_INTERVAL_MS: '50',
        MATCH_ACCEPT_WINDOW_MS: '600000',
        INTERVIEW_LENGTH_MS: '600000',
        QUEUE_ENTRY_TTL_MS: '600000',
        WEBHOOK_RETRY_SCHEDULE_MS: '20,20,20,20,20',
        WEBHOOK_AUTO_PAUSE_FAILURES: '1000',
        WEBHOOK_TEST_WAIT_MS: '50',
        RATE_LIMIT_READ_PER_MIN: '100',
        RATE_LIMIT_WRITE_PER_MIN: '100',
      },
    });
    base = await listen(h);
    Object.assign(ctx, { h, rx, rec: await h.recruiter(), seeker: await h.seeker(), leaver: await h.seeker() });
    for (const [who, token] of [
      ['rec', ctx.rec.token],
      ['seeker', ctx.seeker.token],
      ['leaver', ctx.leaver.token],
      ['anon', undefined],
    ] as const) {
      const c = await httpClient(base, token ? { token } : {});
      clients.push(c);
      as[who] = c;
    }
    // Every tool a full-scope token may list (a recruiter and a seeker see the same list; roles are
    // enforced per call).
    listed = new Map((await as.rec!.listTools()).tools.map((t) => [t.name, t]));
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await h?.close();
    await rx?.close();
  });

  it('every listed tool has a case here and declares an outputSchema (a new tool without a case fails)', () => {
    expect([...listed.keys()].sort()).toEqual(CASES.map((c) => c.tool).sort());
    expect(new Set(CASES.map((c) => c.tool)).size).toBe(CASES.length);
    for (const [name, t] of listed) expect([name, t.outputSchema?.type]).toEqual([name, 'object']);
  });

  for (const c of CASES) {
    it(`${c.tool}: structuredContent validates against its outputSchema`, async () => {
      const args = c.args ? await c.args(ctx) : {};
      const result: Result = await as[c.as]!.callTool({ name: c.tool, arguments: args });
      if (result.isError) throw new Error(`${c.tool} answered an error: ${JSON.stringify(result.content)}`);
      expect(result.structuredContent).toBeDefined();
      const validate = ajv.compile(listed.get(c.tool)!.outputSchema!);
      const ok = validate(result.structuredContent);
      if (!ok) throw new Error(`${c.tool}: ${ajv.errorsText(validate.errors)}`);
      // The schema is closed: a field it does not declare would fail (so the check above can fail).
      expect(validate({ ...(result.structuredContent as object), undeclared_field: 1 })).toBe(false);
      // The text beside it is the same JSON, for clients that only read text.
      const texts = (result.content as Array<{ type: string; text: string }>).map((x) => x.text);
      expect(texts.some((t) => t === JSON.stringify(result.structuredContent, null, 2))).toBe(true);
      await c.then?.(result.structuredContent as Record<string, any>, ctx);
    });
  }

  describe('errors keep the REST envelope, one case per kind', () => {
    const envelopeOf = (r: Result) => {
      expect(r.isError).toBe(true);
      expect(r.structuredContent).toBeUndefined();
      const e = r._meta?.['jobfair/error'];
      const validate = ajv.compile(ENVELOPE);
      if (!validate(e)) throw new Error(ajv.errorsText(validate.errors));
      return e as { code: string; details?: unknown };
    };

    it('400 VALIDATION with the issues', async () => {
      const r = await as.rec!.callTool({ name: 'svc_webhook_create', arguments: { target_url: 'x', events: [] } });
      expect(envelopeOf(r)).toMatchObject({ code: 'VALIDATION', details: { issues: expect.any(Array) } });
    });
    it('402 payment required (off-session charge without consent)', async () => {
      const other = await h.recruiter();
      const c = await httpClient(base, { token: other.token });
      clients.push(c);
      const r = await c.callTool({
        name: 'svc_billing_off_session_charge',
        arguments: { target_plan: 'pro', interval: 'year' },
      });
      expect(envelopeOf(r).code).toBe('OFF_SESSION_CONSENT_REQUIRED');
    });
    it('403 for the wrong role', async () => {
      const r = await as.rec!.callTool({ name: 'svc_queue_join', arguments: {} });
      expect(envelopeOf(r).code).toBe('ROLE_NOT_ALLOWED');
    });
    it('404 NOT_FOUND', async () => {
      const r = await as.rec!.callTool({ name: 'svc_team_job_get', arguments: { jobId: randomUUID() } });
      expect(envelopeOf(r).code).toBe('NOT_FOUND');
    });
    it('409 conflict', async () => {
      const newcomer = await h.seeker({ onboarded: false });
      const c = await httpClient(base, { token: newcomer.token });
      clients.push(c);
      const r = await c.callTool({ name: 'svc_queue_join', arguments: {} });
      expect(envelopeOf(r).code).toBe('ONBOARDING_INCOMPLETE');
    });
    it('429 RATE_LIMITED with Retry-After', async () => {
      // The room URL is cost-bearing (3 a minute per token); a new match id each time, so no bucket replays.
      const busy = await h.seeker();
      const c = await httpClient(base, { token: busy.token });
      clients.push(c);
      let last: Result | undefined;
      for (let i = 0; i < 10; i++) {
        last = await c.callTool({ name: 'svc_interview_room_url_get', arguments: { id: randomUUID() } });
        if ((last._meta?.['jobfair/error'] as { code?: string } | undefined)?.code === 'RATE_LIMITED') break;
      }
      expect(envelopeOf(last!).code).toBe('RATE_LIMITED');
      expect(Number((last!._meta?.['jobfair/http'] as Record<string, string>)['retry-after'])).toBeGreaterThan(0);
    });
    it('401 and 403 insufficient_scope are HTTP answers the client acts on, not tool results', async () => {
      await expect(as.anon!.callTool({ name: 'svc_profile_get', arguments: {} })).rejects.toThrow();
      const narrow = await httpClient(base, { token: await ctx.seeker.tokenWith(['queue:read']) });
      clients.push(narrow);
      await expect(narrow.callTool({ name: 'svc_profile_get', arguments: {} })).rejects.toThrow();
    });
  });
});
