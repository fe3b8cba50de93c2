import { randomBytes, randomUUID } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { RoomServiceClient } from 'livekit-server-sdk';
import { eventually, type Harness, type TestUser } from '../helpers/harness';
import { checkPage, createWebHarness, launchBrowser } from '../helpers/browser';
import { createJob, createLiveEvent, join, matchOf, matchesService } from '../matches/fixtures';
import { freePort } from '#dev/ports';
import { defaultCacheDir } from '#dev/temporal-server';
import { resolveLiveKitServer, startLiveKitServer, type RunningLiveKitServer } from '#dev/livekit-server';
import { liveKitRoomName, mintLiveKitToken } from '#apps/api/src/room/livekit-tokens';
import { matchWorkflowId } from '#workflows/matches/contract';

/**
 * The interview room on a real LiveKit server (VIDEO_PROVIDER=livekit): the server built once
 * with `go install`, started on loopback with webhooks to this test's app. Two fake-camera
 * browsers join through our room page (livekit-client), see and hear each other (frames and
 * audio samples decoded on each side), LiveKit's participant webhooks start the interview clock on
 * both pages, and ending the interview closes the LiveKit room. LiveKit itself refuses a token for
 * a room our API never created and an expired token.
 */
describe('browser: the interview room on a LiveKit server', () => {
  let h: Harness;
  let baseUrl: string;
  let browser: Browser;
  let lk: RunningLiveKitServer | undefined;
  const apiKey = `APItest${randomBytes(4).toString('hex')}`;
  const apiSecret = randomBytes(32).toString('base64url');
  const contexts: BrowserContext[] = [];
  let call: { seeker: Page; recruiter: Page; matchId: string; seekerUserId: string } | undefined;

  beforeAll(async () => {
    const bin =
      process.env.JOBFAIR_TEST_LIVEKIT_BIN ??
      (await resolveLiveKitServer({ cacheDir: defaultCacheDir(process.env.CACHE_DIR), log: console.log }));
    const lkPort = await freePort();
    ({ h, baseUrl } = await createWebHarness({
      MATCHMAKER_INTERVAL_MS: '50',
      QUEUE_ENTRY_TTL_MS: '600000',
      MATCH_ACCEPT_WINDOW_MS: '600000',
      INTERVIEW_LENGTH_MS: '600000',
      VIDEO_PROVIDER: 'livekit',
      LIVEKIT_URL: `ws://127.0.0.1:${lkPort}`,
      LIVEKIT_API_KEY: apiKey,
      LIVEKIT_API_SECRET: apiSecret,
    }));
    lk = await startLiveKitServer({ bin, port: lkPort, apiKey, apiSecret, webhookUrl: `${baseUrl}/livekit/webhook` });
    browser = await launchBrowser({ media: true });
  }, 900_000);
  afterAll(async () => {
    for (const c of contexts) await c.close().catch(() => undefined);
    await browser?.close();
    await h?.close();
    await lk?.stop();
  });

  const pageAs = async (u: TestUser): Promise<Page> => {
    const c = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    contexts.push(c);
    const token = (await h.app.services.accounts.sessions.create(u.user.id, { ip: '127.0.0.1', userAgent: 'test' }))
      .token;
    await c.addCookies([{ name: 'jf_session', value: token, url: baseUrl }]);
    return c.newPage();
  };

  /** What the page has decoded from the other person (inbound-rtp of its LiveKit subscriptions). */
  const received = async (p: Page): Promise<{ framesDecoded: number; audioSamples: number }> =>
    (await p.evaluate('window.jobfairRoom.received()')) as { framesDecoded: number; audioSamples: number };

  /** An accepted match, both parties on its room page past the pre-join check (not joined yet). */
  const roomPages = async () => {
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
    const seekerUrl = (await svc.interviewRoomUrl({ userId: s.user.id, matchId: match.id })).roomUrl;
    // The room URL stays our own page; the LiveKit client is served by us.
    expect(seekerUrl).toMatch(new RegExp(`^${baseUrl}/rooms/${match.id}\\?t=`));
    await seeker.goto(seekerUrl);
    await recruiter.goto((await svc.interviewRoomUrl({ userId: rec.user.id, matchId: match.id })).roomUrl);
    for (const p of [seeker, recruiter])
      await p.locator('#precheck[data-precheck-state="ready"]').waitFor({ timeout: 15_000 });
    return { seeker, recruiter, match, s };
  };

  it('both join through LiveKit, see and hear each other; the clock starts on both presences', async () => {
    const { seeker, recruiter, match, s } = await roomPages();
    // The seeker alone: LiveKit's participant_joined records the arrival; no clock yet.
    await seeker.getByRole('button', { name: 'Join the interview' }).click();
    await seeker.locator('#room[data-connection-state="connected"]').waitFor({ timeout: 30_000 });
    await eventually(async () => (await h.knex('matches').where({ id: match.id }).first()).seeker_in_room_at, 15_000);
    expect((await h.knex('matches').where({ id: match.id }).first()).interview_started_at).toBeNull();
    expect(await seeker.locator('#room-clock').getAttribute('data-clock-state')).toBe('waiting');

    const joinedAt = Date.now();
    await recruiter.getByRole('button', { name: 'Join the interview' }).click();
    await recruiter.locator('#room[data-connection-state="connected"]').waitFor({ timeout: 30_000 });
    // Both see and hear each other: video frames and audio samples decoded on each side.
    for (const p of [seeker, recruiter])
      await eventually(async () => {
        const r = await received(p);
        return r.framesDecoded > 0 && r.audioSamples > 0;
      }, 30_000);
    const mediaMs = Date.now() - joinedAt;
    // Both presences → the match workflow's clock, shown on both pages.
    const m = await eventually(async () => {
      const row = await h.knex('matches').where({ id: match.id }).first();
      return row.interview_started_at ? row : null;
    }, 15_000);
    expect(m.seeker_in_room_at).toBeTruthy();
    expect(m.recruiter_in_room_at).toBeTruthy();
    for (const p of [seeker, recruiter]) {
      await p.locator('#room-clock[data-clock-state="running"]').waitFor({ timeout: 15_000 });
      await p.locator('#end-control').waitFor({ state: 'visible', timeout: 5_000 });
      expect(await p.locator('#room').getAttribute('data-path')).toBe('server');
    }
    const clockMs = Date.now() - joinedAt;

    // Mute and camera signs travel through LiveKit.
    await recruiter.getByRole('button', { name: 'Mute microphone' }).click();
    await seeker.locator('#remote-mic-off').waitFor({ state: 'visible', timeout: 10_000 });
    await recruiter.getByRole('button', { name: 'Unmute microphone' }).click();
    await seeker.locator('#remote-mic-off').waitFor({ state: 'hidden', timeout: 10_000 });

    // The LiveKit secret is in neither the page nor the match workflow's history.
    expect(await seeker.content()).not.toContain(apiSecret);
    const history = JSON.stringify(await h.temporal.workflow.getHandle(matchWorkflowId(match.id)).fetchHistory());
    expect(history).toContain(match.id);
    expect(history).not.toContain(apiSecret);
    console.log(
      `LiveKit call: both decode media ${mediaMs} ms after the second joined; clock on both at ${clockMs} ms`,
    );
    await checkPage(recruiter, 'room-livekit');
    call = { seeker, recruiter, matchId: match.id, seekerUserId: s.user.id };
  }, 180_000);

  it('LiveKit refuses a token for another room and an expired token; our API refuses a room token of another match', async () => {
    const { seeker, matchId, seekerUserId } = call!;
    const connect = async (token: string): Promise<string> =>
      (await seeker.evaluate(`new window.LivekitClient.Room()
        .connect(${JSON.stringify(lk!.url)}, ${JSON.stringify(token)})
        .then(() => 'connected', (e) => 'refused: ' + e.message)`)) as string;
    const keys = { apiKey, apiSecret, appSecret: h.app.appSecret };
    // A token for a room our API never created (another match): LiveKit creates no room for it.
    const otherRoom = await mintLiveKitToken(keys, {
      matchId: randomUUID(),
      userId: seekerUserId,
      role: 'seeker',
      expiresAt: new Date(Date.now() + 60_000),
    });
    const otherRefused = await connect(otherRoom);
    expect(otherRefused).toMatch(/^refused: .*requested room does not exist/);
    // This room, but expired (beyond LiveKit's one-minute leeway).
    const expired = await mintLiveKitToken(keys, {
      matchId,
      userId: seekerUserId,
      role: 'seeker',
      expiresAt: new Date(Date.now() - 2 * 60_000),
    });
    const expiredRefused = await connect(expired);
    expect(expiredRefused).toMatch(/^refused: .*token is expired/);
    // The call itself is untouched.
    expect(await seeker.locator('#room').getAttribute('data-connection-state')).toBe('connected');

    // Our API mints LiveKit tokens only for the match its room token names.
    const roomToken = new URL(seeker.url()).searchParams.get('t')!;
    const path = `/rooms/${randomUUID()}/livekit?t=${encodeURIComponent(roomToken)}`;
    const status = (await seeker.evaluate(
      `fetch(${JSON.stringify(path)}, { method: 'POST', headers: { 'x-csrf-token': window.JobFair.csrf } }).then((r) => r.status)`,
    )) as number;
    expect(status).toBe(403);
    // And a webhook LiveKit did not sign changes nothing.
    const forged = await h.app.inject({
      method: 'POST',
      url: '/livekit/webhook',
      headers: { 'content-type': 'application/webhook+json', authorization: 'forged' },
      payload: JSON.stringify({ event: 'participant_joined', room: { name: liveKitRoomName(matchId) } }),
    });
    expect(forged.statusCode).toBe(401);
  }, 60_000);

  it("a dropped connection: LiveKit's own reconnection, the page says so, the interview runs on", async () => {
    const { seeker, recruiter, matchId } = call!;
    const before = await h.knex('matches').where({ id: matchId }).first();
    const frames = (await received(recruiter)).framesDecoded;
    // LiveKit's client drops its signalling and media connections and joins again (a network change).
    const at = Date.now();
    await seeker.evaluate(`window.jobfairRoom.room.simulateScenario('full-reconnect')`);
    await seeker.locator('#room[data-reconnects="1"]').waitFor({ timeout: 15_000 });
    await seeker
      .locator('#room[data-connection-state="connected"]:not([data-reconnecting])')
      .waitFor({ timeout: 30_000 });
    expect(await seeker.locator('#room-reconnecting').isHidden()).toBe(true);
    const backMs = Date.now() - at;
    // Media flows again both ways; the same interview, its clock unchanged.
    await eventually(async () => (await received(recruiter)).framesDecoded > frames + 10, 20_000);
    await eventually(async () => (await received(seeker)).framesDecoded > 10, 20_000);
    const after = await h.knex('matches').where({ id: matchId }).first();
    expect(after.status).toBe('accepted');
    expect(after.interview_started_at).toEqual(before.interview_started_at);
    for (const p of [seeker, recruiter])
      expect(await p.locator('#room-clock').getAttribute('data-clock-state')).toBe('running');
    console.log(`LiveKit full reconnect: connected again after ${backMs} ms`);
  }, 90_000);

  it('ending the interview closes the LiveKit room for both', async () => {
    const { seeker, recruiter, matchId } = call!;
    await recruiter.locator('summary', { hasText: 'End the interview' }).click();
    await Promise.all([
      recruiter.waitForURL(new RegExp(`/matches/${matchId}`)),
      recruiter.getByRole('button', { name: 'Yes, end the interview for both' }).click(),
    ]);
    await eventually(async () => h.knex('matches').where({ id: matchId, status: 'completed' }).first());
    // LiveKit disconnects the other page (room deleted): it leaves for the match page.
    await seeker.waitForURL(new RegExp(`/matches/${matchId}$`), { timeout: 15_000 });
    const rooms = await new RoomServiceClient(lk!.url, apiKey, apiSecret).listRooms([liveKitRoomName(matchId)]);
    expect(rooms).toEqual([]);
  }, 60_000);

  it('LiveKit server down: the room says it cannot reach the video server, and what to try', async () => {
    await lk!.stop();
    const { seeker } = await roomPages();
    await seeker.getByRole('button', { name: 'Join the interview' }).click();
    await seeker.locator('#room[data-no-path="1"]').waitFor({ timeout: 30_000 });
    expect(await seeker.locator('#room-nopath').textContent()).toContain('No connection to the video server');
    await checkPage(seeker, 'room-livekit-no-server');
    lk = undefined;
  }, 60_000);
});
