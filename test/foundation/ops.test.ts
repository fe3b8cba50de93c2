import { spawn } from 'node:child_process';
import path from 'node:path';
import { matchWorkflowId } from '#workflows/matches/contract';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { describeDrift, reconcile, UnknownSubjectError, why, type OpsContext } from '#apps/ops/src/ops-commands';
import { webhookSubscriptionWorkflowId } from '#workflows/webhooks/contract';

/**
 * `npm run ops`: `why` answers in words for a match waiting on each side, an expired one and a
 * seeker with no eligible job; `reconcile` finds a deliberately corrupted projection (and corrupted
 * webhook subscriptions) and `--fix` repairs it from the workflow. Real API services, workflows and PostgreSQL.
 */
describe('ops commands', () => {
  let h: Harness;
  let ctx: OpsContext;
  let slug: string;
  let recruiter: Awaited<ReturnType<Harness['recruiter']>>;

  beforeAll(async () => {
    // A short acceptance window so one match can be seen expiring.
    h = await createHarness({ env: { MATCH_ACCEPT_WINDOW_MS: '6000', MATCHMAKER_INTERVAL_MS: '200' } });
    ctx = { services: h.app.services, temporal: h.temporal, timeZone: 'UTC' };
    recruiter = await h.recruiter();
    const { liveEvents: events, jobs } = h.app.services.events;
    slug = `ops-${Date.now().toString(36)}`;
    const event = await events.create(recruiter.teamId!, recruiter.user.id, {
      slug,
      company_name: 'Ops Ltd',
      visibility: 'open_invite',
      interview_slots: 5,
    });
    await jobs.create(recruiter.teamId!, {
      live_event_id: event.id,
      title: 'Backend Engineer',
      essential_skills: ['TypeScript'],
      bonus_skills: [],
      experience_min: 1,
      salary_min: null,
      salary_max: null,
      location: null,
      remote_preference: 'remote',
    });
    await events.transition(recruiter.teamId!, recruiter.user.id, event.id, 'goLive');
  }, 120_000);
  afterAll(async () => h?.close());

  const matchedSeeker = async () => {
    const seeker = await h.seeker();
    const join = await h.call({
      method: 'POST',
      url: '/api/v1/queue/join',
      token: seeker.token,
      payload: { live_event_slug: slug },
    });
    expect(join.statusCode).toBe(200);
    const matchId = await eventually(
      async () => (await h.app.services.deps.repos.queue.findLatestForUser(seeker.user.id))?.match_id,
      20_000,
      100,
    );
    await eventually(async () => h.app.services.deps.repos.matches.findById(matchId), 20_000, 100);
    // The row comes first (written with the offer); `why` reads the workflow, which starts right after.
    await eventually(
      async () =>
        await h.temporal.workflow
          .getHandle(matchWorkflowId(matchId))
          .describe()
          .then(
            () => true,
            () => false,
          ),
      20_000,
      100,
    );
    return { seeker, matchId };
  };

  it(
    'why: a match waiting on both sides, then on the seeker, then expired — in words, with ' + 'names and local times',
    async () => {
      const { seeker, matchId } = await matchedSeeker();
      const both = (await why(ctx, matchId)).join('\n');
      expect(both).toContain(`${seeker.user.display_name} for "Backend Engineer"`);
      expect(both).toContain("waiting for the seeker's acceptance; waiting for the recruiter's acceptance");
      expect(both).toMatch(/acceptance window expires .* UTC \(in \d+ s\)/);
      expect(both).not.toContain('@');

      await h.app.services.matches.accept({ userId: recruiter.user.id, matchId });
      const one = (await why(ctx, matchId)).join('\n');
      expect(one).toMatch(
        /Waiting: waiting for the seeker's acceptance; the recruiter accepted 2\d Nov, [\d:]+ UTC \((now|\d+ s ago)\)\./,
      );

      await eventually(
        async () => (await h.app.services.deps.repos.matches.findById(matchId))?.status === 'expired',
        30_000,
        200,
      );
      const expired = (await why(ctx, matchId)).join('\n');
      expect(expired).toContain('Status: expired');
      expect(expired).toContain('the seeker did not accept within the window');

      // By e-mail: the seeker's entry (back to waiting after the expiry) and its eligibility.
      const byEmail = (await why(ctx, seeker.user.email)).join('\n');
      expect(byEmail).toContain(`${seeker.user.display_name} (seeker).`);
      expect(byEmail).toMatch(/Queue entry .* for event ops-/);
    },
    90_000,
  );

  it('why: a seeker with no eligible job', async () => {
    const seeker = await h.seeker({ profile: { skills: ['COBOL'] } as never });
    expect(
      (
        await h.call({
          method: 'POST',
          url: '/api/v1/queue/join',
          token: seeker.token,
          payload: { live_event_slug: slug },
        })
      ).statusCode,
    ).toBe(200);
    const out = (await why(ctx, seeker.user.email)).join('\n');
    expect(out).toContain('waiting');
    expect(out).toContain('Blocked by: no_eligible_job.');
    expect(out).toMatch(/Why: No open job can be offered: of 1 open job, 1 that never pass the quality floor/);
    // The status the seeker reads says the same.
    const status = (await h.call({ method: 'GET', url: '/api/v1/queue/status', token: seeker.token })).json();
    expect(out).toContain(`Why: ${status.queue_entry.match_outlook.reason}`);
    // The Temporal UI's workflow id of the entry names the same seeker.
    expect((await why(ctx, `queue-entry:${seeker.user.id}`)).join('\n')).toContain('Blocked by: no_eligible_job.');
    // Nothing known: an error (the CLI prints it and exits 1), never an answer that looks like one.
    await expect(why(ctx, 'not-an-id')).rejects.toThrow(UnknownSubjectError);
    await expect(why(ctx, 'nobody@nowhere.test')).rejects.toThrow(
      'No user with the e-mail address nobody@nowhere.test.',
    );
  });

  it('the CLI: `why` of an unknown e-mail prints why and exits 1; a workflow id of the Temporal UI answers, exit 0', async () => {
    const seeker = await h.seeker();
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string; err: string }>((resolve) => {
        const root = path.resolve(__dirname, '../..');
        const child = spawn(process.execPath, ['--import', 'tsx', 'apps/ops/src/ops.ts', ...args], {
          cwd: root,
          env: {
            ...process.env,
            NODE_ENV: 'test',
            LOG_LEVEL: 'silent',
            DATABASE_URL: h.dbUrl,
            TEMPORAL_ADDRESS: h.config.TEMPORAL_ADDRESS,
          },
        });
        let out = '';
        let err = '';
        child.stdout.on('data', (d) => (out += d));
        child.stderr.on('data', (d) => (err += d));
        child.on('close', (code) => resolve({ code, out, err }));
      });
    const unknown = await run(['why', 'nobody@nowhere.test']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain('No user with the e-mail address nobody@nowhere.test.');
    const known = await run(['why', `queue-entry:${seeker.user.id}`]);
    expect(known.err).toContain('has no queue entry');
    expect(known.code).toBe(1);
    await h.call({
      method: 'POST',
      url: '/api/v1/queue/join',
      token: seeker.token,
      payload: { live_event_slug: slug },
    });
    const joined = await run(['why', `queue-entry:${seeker.user.id}`]);
    expect(joined.code).toBe(0);
    expect(joined.out).toMatch(/Queue entry .* of Seeker/);
  }, 60_000);

  it(
    'reconcile: detects a corrupted match and queue entry projection, --fix re-projects them ' + 'from the workflows',
    async () => {
      const { seeker, matchId } = await matchedSeeker();
      const entry = (await h.app.services.deps.repos.queue.findLatestForUser(seeker.user.id))!;
      expect((await reconcile(ctx, { fix: false })).filter((d) => d.id === matchId || d.id === entry.id)).toEqual([]);

      await h.knex('matches').where({ id: matchId }).update({ status: 'declined' });
      await h.knex('queue_entries').where({ id: entry.id }).update({ status: 'left', match_id: null });
      const found = (await reconcile(ctx, { fix: false })).filter((d) => d.id === matchId || d.id === entry.id);
      expect(found).toEqual(
        expect.arrayContaining([
          { kind: 'match', id: matchId, field: 'status', projection: 'declined', workflow: 'matched' },
          { kind: 'queue_entry', id: entry.id, field: 'status', projection: 'left', workflow: 'matched' },
          { kind: 'queue_entry', id: entry.id, field: 'match_id', projection: null, workflow: matchId },
        ]),
      );
      expect((await why(ctx, matchId)).join('\n')).toContain('Drift: PostgreSQL says declined');

      const fixed = (await reconcile(ctx, { fix: true })).filter((d) => d.id === matchId || d.id === entry.id);
      expect(fixed.every((d) => d.fixed)).toBe(true);
      expect((await h.app.services.deps.repos.matches.findById(matchId))!.status).toBe('matched');
      expect((await h.app.services.deps.repos.queue.findById(entry.id))!).toMatchObject({
        status: 'matched',
        match_id: matchId,
      });
      expect((await reconcile(ctx, { fix: false })).filter((d) => d.id === matchId || d.id === entry.id)).toEqual([]);
    },
    60_000,
  );
  it(
    'reconcile: webhook subscriptions — state drift, a missing workflow, a workflow whose row ' +
      'is gone; --fix repairs each from the owner',
    async () => {
      const owner = { kind: 'team' as const, teamId: recruiter.teamId! };
      const create = async (n: string) =>
        (
          await h.app.services.webhooks.create(owner, recruiter.user.id, {
            target_url: `http://127.0.0.1:9/${n}`,
            events: ['match.matched'],
          })
        ).row.id;
      const [drifted, missing, orphan, markedDeleted] = [
        await create('a'),
        await create('b'),
        await create('c'),
        await create('d'),
      ];
      const ours = (ds: Awaited<ReturnType<typeof reconcile>>) =>
        ds.filter((d) => [drifted, missing, orphan, markedDeleted].includes(d.id));
      const running = async (id: string) =>
        (await h.temporal.workflow.getHandle(webhookSubscriptionWorkflowId(id)).describe()).status.name;
      // Each actor has finished its first projection (an activity) before we corrupt anything.
      for (const id of [drifted, missing, orphan, markedDeleted]) {
        await eventually(
          async () =>
            (await h.temporal.workflow.getHandle(webhookSubscriptionWorkflowId(id)).fetchHistory()).events?.some(
              (e) => e.activityTaskCompletedEventAttributes,
            ),
          20_000,
          100,
        );
      }
      expect(ours(await reconcile(ctx, { fix: false }))).toEqual([]);

      await h
        .knex('webhook_subscriptions')
        .where({ id: drifted })
        .update({ status: 'paused', consecutive_failures: 7 });
      await h.temporal.workflow
        .getHandle(webhookSubscriptionWorkflowId(missing))
        .terminate('test: the workflow goes missing');
      await h.knex('webhook_subscriptions').where({ id: orphan }).delete();
      await h.knex('webhook_subscriptions').where({ id: markedDeleted }).update({ status: 'deleted' });

      // The orphan is found through visibility, which the dev server updates asynchronously: poll.
      const found = await eventually(
        async () => {
          const ds = ours(await reconcile(ctx, { fix: false }));
          return ds.some((d) => d.id === orphan) ? ds : null;
        },
        20_000,
        250,
      );
      const by = (id: string) => found.filter((d) => d.id === id).map((d) => [d.field, d.projection, d.workflow]);
      expect(by(drifted).sort()).toEqual(
        [
          ['consecutive_failures', 7, 0],
          ['status', 'paused', 'active'],
        ].sort(),
      );
      expect(by(missing)).toEqual([['workflow', 'active', 'none running']]);
      expect(by(orphan)).toEqual([['row', 'none', 'running']]);
      expect(by(markedDeleted)).toEqual([['status', 'deleted', 'active']]);
      expect(found.every((d) => !d.fixed)).toBe(true);
      expect(describeDrift(found.find((d) => d.id === missing)!)).toBe(
        `webhook_subscription ${missing}: PostgreSQL says "active", but no workflow runs for it`,
      );

      const fixed = ours(await reconcile(ctx, { fix: true }));
      expect(fixed.length).toBe(found.length);
      expect(fixed.every((d) => d.fixed)).toBe(true);
      const row = async (id: string) => h.app.services.deps.repos.webhooks.findSubscriptionById(id);
      expect(await row(drifted)).toMatchObject({ status: 'active', consecutive_failures: 0 });
      expect(await row(markedDeleted)).toMatchObject({ status: 'active' });
      expect(await running(missing)).toBe('RUNNING');
      await eventually(async () => (await running(orphan)) === 'COMPLETED', 20_000, 100);
      // Repaired: nothing left (visibility may list the ended orphan as running for a moment).
      await eventually(async () => ours(await reconcile(ctx, { fix: false })).length === 0, 20_000, 250);
    },
    90_000,
  );
});
