import { randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eventually, type Harness, type TestUser } from '../helpers/harness';
import { checkPage, createWebHarness, launchBrowser } from '../helpers/browser';
import { createJob, createLiveEvent, join, matchOf, matchesService } from '../matches/fixtures';
import { freePort } from '#dev/ports';
import { startTurnServer, type RunningTurnServer } from '#dev/turn-server';
import { matchWorkflowId } from '#workflows/matches/contract';

/**
 * The built-in room through a real TURN relay: coturn (Debian's package) on loopback with the
 * shared secret the API mints per-room credentials from, and ROOM_ICE_TRANSPORT_POLICY=relay, so
 * the two fake-camera browsers can only meet through coturn. Media must flow both ways (frames
 * decoded on each side); with coturn stopped, or running with another secret, no path is found and
 * the room says so.
 */
describe('browser: the interview room relayed through coturn (TURN REST API credentials)', () => {
  let h: Harness;
  let baseUrl: string;
  let browser: Browser;
  let turn: RunningTurnServer | undefined;
  let turnPort: number;
  const secret = randomBytes(24).toString('hex');
  const contexts: BrowserContext[] = [];
  /** The first test's call, which the reconnection test cuts and restores. */
  let call: { seeker: Page; recruiter: Page; matchId: string } | undefined;
  beforeAll(async () => {
    turnPort = await freePort();
    turn = await startTurnServer({ secret, port: turnPort });
    ({ h, baseUrl } = await createWebHarness({
      MATCHMAKER_INTERVAL_MS: '50',
      QUEUE_ENTRY_TTL_MS: '600000',
      MATCH_ACCEPT_WINDOW_MS: '600000',
      INTERVIEW_LENGTH_MS: '600000',
      ROOM_TURN_URLS: turn.urls.join(','),
      ROOM_TURN_SECRET: secret,
      ROOM_ICE_TRANSPORT_POLICY: 'relay',
      ROOM_CONNECT_TIMEOUT_MS: '8000',
    }));
    browser = await launchBrowser({ media: true });
  });
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await h?.close();
    await turn?.stop();
  });

  const pageAs = async (u: TestUser): Promise<Page> => {
    const c = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(c);
    const token = (await h.app.services.accounts.sessions.create(u.user.id, { ip: '127.0.0.1', userAgent: 'test' }))
      .token;
    await c.addCookies([{ name: 'jf_session', value: token, url: baseUrl }]);
    return c.newPage();
  };

  /** An accepted match, both parties in its room past the pre-join check; answers when both joined. */
  const bothInRoom = async (): Promise<{ seeker: Page; recruiter: Page; joinedAt: number; matchId: string }> => {
    const rec = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 1 });
    await createJob(h, { event });
    const s = await h.seeker();
    await join(h, s, event.slug);
    const match = await matchOf(h, s.user.id);
    const svc = matchesService(h);
    await svc.accept({ userId: s.user.id, matchId: match.id });
    await svc.accept({ userId: rec.user.id, matchId: match.id });
    const seeker = await pageAs(s);
    const recruiter = await pageAs(rec);
    await seeker.goto((await svc.interviewRoomUrl({ userId: s.user.id, matchId: match.id })).roomUrl);
    await recruiter.goto((await svc.interviewRoomUrl({ userId: rec.user.id, matchId: match.id })).roomUrl);
    for (const p of [seeker, recruiter])
      await p.locator('#precheck[data-precheck-state="ready"]').waitFor({ timeout: 15_000 });
    const joinedAt = Date.now();
    for (const p of [seeker, recruiter]) await p.getByRole('button', { name: 'Join the interview' }).click();
    return { seeker, recruiter, joinedAt, matchId: match.id };
  };

  /** Video frames this page has decoded from the other side (getStats inbound-rtp). */
  const framesDecoded = async (p: Page): Promise<number> =>
    (await p.evaluate(`window.jobfairRoom.pc.getStats().then((s) => {
      let n = 0;
      s.forEach((r) => { if (r.type === 'inbound-rtp' && r.kind === 'video') n += r.framesDecoded || 0; });
      return n;
    })`)) as number;

  /** The local and remote candidate types of the selected pair. */
  const selectedPair = async (p: Page): Promise<string[]> =>
    (await p.evaluate(`window.jobfairRoom.pc.getStats().then((s) => {
      let pair;
      s.forEach((r) => { if (r.type === 'transport' && r.selectedCandidatePairId) pair = s.get(r.selectedCandidatePairId); });
      return pair ? [s.get(pair.localCandidateId).candidateType, s.get(pair.remoteCandidateId).candidateType] : [];
    })`)) as string[];

  it('relay only: both meet through coturn, media flows both ways, the room says "relayed"', async () => {
    const { seeker, recruiter, joinedAt, matchId } = await bothInRoom();
    call = { seeker, recruiter, matchId };
    for (const p of [seeker, recruiter])
      await p.locator('#room[data-connection-state="connected"]').waitFor({ timeout: 30_000 });
    const setupMs = Date.now() - joinedAt;
    for (const p of [seeker, recruiter]) {
      await eventually(async () => (await framesDecoded(p)) > 0, 15_000);
      expect(await selectedPair(p)).toEqual(['relay', 'relay']);
      await p.locator('#room[data-path="relayed"]').waitFor({ timeout: 10_000 });
      expect(await p.locator('#room-path [data-path="relayed"]').isVisible()).toBe(true);
    }
    // The minted credential: TURN REST API shape, expiring with the room URL, only in the page's script.
    const cfg = (await seeker.evaluate('window.jobfairRoom.pc.getConfiguration()')) as {
      iceServers: Array<{ urls: string[]; username?: string; credential?: string }>;
      iceTransportPolicy: string;
    };
    expect(cfg.iceTransportPolicy).toBe('relay');
    const turnEntry = cfg.iceServers.find((e) => e.credential)!;
    expect(turnEntry.urls).toEqual(turn!.urls);
    expect(turnEntry.username).toMatch(/^\d{10}:room-[0-9a-f]{16}-s$/);
    const html = await seeker.content();
    expect(html).not.toContain(turnEntry.credential);
    expect(html).not.toContain(turnEntry.username);
    expect(html).not.toContain(secret);
    // Nor in the match workflow's history (the room tells it arrivals and the clock only).
    const history = JSON.stringify(await h.temporal.workflow.getHandle(matchWorkflowId(matchId)).fetchHistory());
    expect(history).toContain(matchId);
    for (const s of [turnEntry.credential!, turnEntry.username!, secret]) expect(history).not.toContain(s);
    console.log(`relayed call set-up (both press Join → both connected through coturn): ${setupMs} ms`);
    await checkPage(recruiter, 'room-relayed');
  }, 120_000);

  it('the relay goes down mid-interview: both say "reconnecting", ICE restarts when it is back, the interview runs on', async () => {
    const { seeker, recruiter, matchId } = call!;
    const before = await h.knex('matches').where({ id: matchId }).first();
    expect(before.interview_started_at).toBeTruthy();
    // The only path between the two browsers is coturn's relay: stopping it cuts the call.
    await turn!.stop();
    const cutAt = Date.now();
    for (const p of [seeker, recruiter]) {
      await p.locator('#room[data-reconnecting="1"]').waitFor({ timeout: 30_000 });
      expect(await p.locator('#room-reconnecting').isVisible()).toBe(true);
    }
    const noticedMs = Date.now() - cutAt;
    await checkPage(seeker, 'room-reconnecting');
    turn = await startTurnServer({ secret, port: turnPort });
    const backAt = Date.now();
    const framesBefore = await Promise.all([seeker, recruiter].map(framesDecoded));
    for (const p of [seeker, recruiter]) {
      await p.locator('#room[data-connection-state="connected"]:not([data-reconnecting])').waitFor({ timeout: 45_000 });
      expect(await p.locator('#room-reconnecting').isHidden()).toBe(true);
      expect(await p.locator('#room-nopath').isHidden()).toBe(true);
    }
    const reconnectedMs = Date.now() - backAt;
    // Media flows again both ways, through the new relay allocation.
    for (const [i, p] of [seeker, recruiter].entries()) {
      await eventually(async () => (await framesDecoded(p)) > framesBefore[i] + 10, 15_000);
      expect(await selectedPair(p)).toEqual(['relay', 'relay']);
    }
    // The same interview: still accepted, the clock from before.
    const after = await h.knex('matches').where({ id: matchId }).first();
    expect(after.status).toBe('accepted');
    expect(after.interview_started_at).toEqual(before.interview_started_at);
    for (const p of [seeker, recruiter])
      expect(await p.locator('#room-clock').getAttribute('data-clock-state')).toBe('running');
    console.log(
      `relay cut: "reconnecting" on both after ${noticedMs} ms; connected again ${reconnectedMs} ms after it was back`,
    );
  }, 150_000);

  it('TURN server stopped: no path is found and the room says what to try', async () => {
    await turn!.stop();
    turn = undefined;
    const { seeker, recruiter } = await bothInRoom();
    for (const p of [seeker, recruiter]) {
      await p.locator('#room[data-no-path="1"]').waitFor({ timeout: 60_000 });
      expect(await p.locator('#room-nopath').isVisible()).toBe(true);
      expect(await p.locator('#room-nopath').textContent()).toContain('another network');
      expect(await framesDecoded(p)).toBe(0);
    }
    await checkPage(seeker, 'room-no-path');
  }, 120_000);

  it('TURN server with another secret: the credentials are refused, no path', async () => {
    turn = await startTurnServer({ secret: randomBytes(24).toString('hex'), port: turnPort });
    const { seeker, recruiter } = await bothInRoom();
    for (const p of [seeker, recruiter]) {
      await p.locator('#room[data-no-path="1"]').waitFor({ timeout: 60_000 });
      expect(await framesDecoded(p)).toBe(0);
    }
  }, 120_000);
});
