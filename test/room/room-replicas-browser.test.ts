import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, CDPSession, Page } from 'playwright-core';
import { eventually, type Harness, type TestUser } from '../helpers/harness';
import { checkPage, createWebHarness, launchBrowser } from '../helpers/browser';
import { processEnv, startApi, type RunningProcess } from '../helpers/processes';
import { createJob, createLiveEvent, join, matchOf, matchesService } from '../matches/fixtures';
import { freePort } from '#dev/ports';
import { startTurnServer, type RunningTurnServer } from '#dev/turn-server';
import { stopProcess } from '#lib/supervision';

/**
 * The built-in room across two API processes (decision 0254): the seeker's browser talks to
 * replica A (the test's own app), the recruiter's to replica B (a second API process on the same
 * database); signalling and presence go through PostgreSQL. Each replica hands out its own coturn
 * (relay only), so the call also passes through both relays. Then the seeker's network is cut
 * (the browser offline, its relay gone) and restored: both pages say "reconnecting", and the call
 * comes back in the same interview. Leaving is told at once.
 */
describe('browser: the interview room with its two people on two API replicas', () => {
  let h: Harness;
  let baseA: string;
  let baseB: string;
  let replicaB: RunningProcess | undefined;
  let browser: Browser;
  let turnA: RunningTurnServer | undefined;
  let turnB: RunningTurnServer | undefined;
  let turnAPort: number;
  const secret = randomBytes(24).toString('hex');
  const contexts: BrowserContext[] = [];
  let call: { seeker: Page; recruiter: Page; matchId: string; cdp: CDPSession } | undefined;

  beforeAll(async () => {
    turnAPort = await freePort();
    turnA = await startTurnServer({ secret, port: turnAPort });
    turnB = await startTurnServer({ secret });
    const common = {
      MATCHMAKER_INTERVAL_MS: '50',
      QUEUE_ENTRY_TTL_MS: '600000',
      MATCH_ACCEPT_WINDOW_MS: '600000',
      INTERVIEW_LENGTH_MS: '600000',
      ROOM_TURN_SECRET: secret,
      ROOM_ICE_TRANSPORT_POLICY: 'relay',
      ROOM_CONNECT_TIMEOUT_MS: '8000',
      ROOM_RECONNECT_GRACE_MS: '60000',
    };
    ({ h, baseUrl: baseA } = await createWebHarness({ ...common, ROOM_TURN_URLS: turnA.urls.join(',') }));
    const b = await processEnv(h, { ...common, ROOM_TURN_URLS: turnB.urls.join(',') });
    baseB = b.base;
    replicaB = await startApi(b.env, b.base);
    browser = await launchBrowser({ media: true });
  }, 120_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    if (replicaB) await stopProcess(replicaB, 'SIGTERM', 10_000);
    await h?.close();
    await turnA?.stop();
    await turnB?.stop();
  });

  const pageAs = async (u: TestUser, base: string): Promise<Page> => {
    const c = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(c);
    const token = (await h.app.services.accounts.sessions.create(u.user.id, { ip: '127.0.0.1', userAgent: 'test' }))
      .token;
    await c.addCookies([{ name: 'jf_session', value: token, url: base }]);
    return c.newPage();
  };

  /** Video frames this page has decoded from the other side (getStats inbound-rtp of the current call). */
  const framesDecoded = async (p: Page): Promise<number> =>
    (await p.evaluate(`window.jobfairRoom.pc ? window.jobfairRoom.pc.getStats().then((s) => {
      let n = 0;
      s.forEach((r) => { if (r.type === 'inbound-rtp' && r.kind === 'video') n += r.framesDecoded || 0; });
      return n;
    }) : 0`)) as number;

  const selectedPair = async (p: Page): Promise<string[]> =>
    (await p.evaluate(`window.jobfairRoom.pc.getStats().then((s) => {
      let pair;
      s.forEach((r) => { if (r.type === 'transport' && r.selectedCandidatePairId) pair = s.get(r.selectedCandidatePairId); });
      return pair ? [s.get(pair.localCandidateId).candidateType, s.get(pair.remoteCandidateId).candidateType] : [];
    })`)) as string[];

  it('seeker on replica A, recruiter on replica B: they meet, media flows both ways, the clock starts', async () => {
    const rec = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 1 });
    await createJob(h, { event });
    const s = await h.seeker();
    await join(h, s, event.slug);
    const match = await matchOf(h, s.user.id);
    const svc = matchesService(h);
    await svc.accept({ userId: s.user.id, matchId: match.id });
    await svc.accept({ userId: rec.user.id, matchId: match.id });
    const seeker = await pageAs(s, baseA);
    const recruiter = await pageAs(rec, baseB);
    const seekerUrl = (await svc.interviewRoomUrl({ userId: s.user.id, matchId: match.id })).roomUrl;
    const recUrl = new URL((await svc.interviewRoomUrl({ userId: rec.user.id, matchId: match.id })).roomUrl);
    expect(new URL(seekerUrl).origin).toBe(baseA);
    await seeker.goto(seekerUrl);
    // The same room link, opened on the other replica (as a load balancer may send it).
    await recruiter.goto(`${baseB}${recUrl.pathname}${recUrl.search}`);
    for (const p of [seeker, recruiter])
      await p.locator('#precheck[data-precheck-state="ready"]').waitFor({ timeout: 15_000 });
    const joinedAt = Date.now();
    for (const p of [seeker, recruiter]) await p.getByRole('button', { name: 'Join the interview' }).click();

    // Each replica holds one of the two sockets.
    await eventually(async () => (await h.knex('room_presence').where({ match_id: match.id })).length === 2, 15_000);
    const rows = await h.knex('room_presence').where({ match_id: match.id }).orderBy('role');
    expect(rows.map((r) => r.role)).toEqual(['recruiter', 'seeker']);
    expect(rows[0].replica_id).not.toBe(rows[1].replica_id);

    for (const p of [seeker, recruiter])
      await p.locator('#room[data-connection-state="connected"]').waitFor({ timeout: 30_000 });
    const setupMs = Date.now() - joinedAt;
    for (const p of [seeker, recruiter]) {
      await eventually(async () => (await framesDecoded(p)) > 0, 15_000);
      expect(await selectedPair(p)).toEqual(['relay', 'relay']);
    }
    // Each browser got its own replica's relay: the seeker's credential is for coturn A.
    const seekerTurn = (await seeker.evaluate('window.jobfairRoom.pc.getConfiguration().iceServers')) as Array<{
      urls: string[];
    }>;
    expect(seekerTurn.flatMap((e) => e.urls)).toEqual(turnA!.urls);
    // Both in the room: the match workflow started the clock once (projected a moment later), and both pages run it.
    await eventually(
      async () => (await h.knex('matches').where({ id: match.id }).first()).interview_started_at !== null,
      15_000,
    );
    for (const p of [seeker, recruiter])
      await p.locator('#room-clock[data-clock-state="running"]').waitFor({ timeout: 15_000 });
    console.log(`call set-up across two replicas (both press Join → both connected, relayed): ${setupMs} ms`);
    const cdp = await seeker.context().newCDPSession(seeker);
    await cdp.send('Network.enable');
    call = { seeker, recruiter, matchId: match.id, cdp };
  }, 120_000);

  it("the seeker's network is cut and comes back: both say reconnecting, then the same interview runs on", async () => {
    const { seeker, recruiter, matchId, cdp } = call!;
    const before = await h.knex('matches').where({ id: matchId }).first();
    // Offline: the browser's signalling socket drops and cannot come back; its relay is gone too.
    await cdp.send('Network.emulateNetworkConditions', {
      offline: true,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    await turnA!.stop();
    const cutAt = Date.now();
    await seeker.locator('#room[data-signal="reconnecting"][data-reconnecting="1"]').waitFor({ timeout: 30_000 });
    // The other side is told (through the other replica) and waits: not "left", not "no path".
    await recruiter.locator('#room[data-peer="away"][data-reconnecting="1"]').waitFor({ timeout: 30_000 });
    const noticedMs = Date.now() - cutAt;
    // Each page says whose connection dropped (the status line), and that the interview keeps running.
    expect(await recruiter.locator('#room-status-text').textContent()).toContain('Waiting for them to reconnect');
    expect(await seeker.locator('#room-status-text').textContent()).toContain('Your connection to the room dropped');
    const away = await h.knex('room_presence').where({ match_id: matchId, role: 'seeker' }).first();
    expect(away.away_since).toBeTruthy();
    await checkPage(recruiter, 'room-peer-reconnecting');
    await checkPage(seeker, 'room-signal-reconnecting');
    // Longer than a connect timeout: the pages still wait (no "no path" while one side is away).
    await eventually(async () => Date.now() - cutAt > 10_000, 15_000, 500);
    for (const p of [seeker, recruiter]) expect(await p.locator('#room-nopath').isHidden()).toBe(true);

    turnA = await startTurnServer({ secret, port: turnAPort });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: 0,
      downloadThroughput: -1,
      uploadThroughput: -1,
    });
    const backAt = Date.now();
    for (const p of [seeker, recruiter])
      await p
        .locator(
          '#room[data-connection-state="connected"]:not([data-reconnecting]):not([data-peer]):not([data-signal])',
        )
        .waitFor({ timeout: 45_000 });
    const reconnectedMs = Date.now() - backAt;
    for (const p of [seeker, recruiter]) {
      await eventually(async () => (await framesDecoded(p)) > 10, 15_000);
      expect(await selectedPair(p)).toEqual(['relay', 'relay']);
      expect(await p.locator('#room-clock').getAttribute('data-clock-state')).toBe('running');
    }
    // The same interview: still accepted, the clock from before; the seeker is present again.
    const after = await h.knex('matches').where({ id: matchId }).first();
    expect(after.status).toBe('accepted');
    expect(after.interview_started_at).toEqual(before.interview_started_at);
    const back = await h.knex('room_presence').where({ match_id: matchId, role: 'seeker' }).first();
    expect(back.away_since).toBeNull();
    console.log(
      `network cut: the other side said "reconnecting" after ${noticedMs} ms; connected again ${reconnectedMs} ms after the network was back`,
    );
  }, 150_000);

  it('stepping out is leaving: the other replica tells the recruiter at once, not after the grace', async () => {
    const { seeker, recruiter, matchId } = call!;
    const leftAt = Date.now();
    await seeker.getByRole('link', { name: 'Step out' }).click();
    await recruiter.locator('#room[data-peer="left"]').waitFor({ timeout: 15_000 });
    expect(Date.now() - leftAt).toBeLessThan(15_000);
    expect(await recruiter.locator('#room-status-text').textContent()).toContain('left the room');
    expect(await h.knex('room_presence').where({ match_id: matchId, role: 'seeker' }).first()).toBeUndefined();
  }, 60_000);
});
