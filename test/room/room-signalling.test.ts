import { setTimeout as sleep } from 'node:timers/promises';
import WebSocket from 'ws';
import type { Harness, TestUser } from '../helpers/harness';
import { createWebHarness } from '../helpers/browser';
import { createJob, createLiveEvent, join, matchOf, matchesService } from '../matches/fixtures';
import { WebClient } from '../helpers/web-client';

/**
 * The interview room's WebSocket signalling over a real socket: session + room token, only the two
 * parties, the recruiter offers, messages are relayed to the other party only, leaving closes the room.
 */
describe('interview room signalling (WebSocket)', () => {
  let h: Harness;
  let baseUrl: string;
  beforeAll(async () => {
    ({ h, baseUrl } = await createWebHarness({
      MATCHMAKER_INTERVAL_MS: '50',
      QUEUE_ENTRY_TTL_MS: '600000',
      MATCH_ACCEPT_WINDOW_MS: '600000',
      INTERVIEW_LENGTH_MS: '600000',
    }));
  });
  afterAll(async () => h?.close());

  const sessionCookie = async (u: TestUser) =>
    `jf_session=${(await h.app.services.accounts.sessions.create(u.user.id, { ip: '127.0.0.1', userAgent: 'test' })).token}`;

  /** Opens a socket and collects its messages; resolves once open (or with the HTTP refusal status). */
  const open = (path: string, cookie: string | null, origin = baseUrl) =>
    new Promise<{ ws: WebSocket; messages: Array<Record<string, unknown>>; status: number | null }>((resolve) => {
      const ws = new WebSocket(`${baseUrl.replace('http', 'ws')}${path}`, {
        headers: { ...(cookie ? { cookie } : {}), origin },
      });
      const messages: Array<Record<string, unknown>> = [];
      ws.on('message', (d) => messages.push(JSON.parse(d.toString())));
      ws.on('open', () => resolve({ ws, messages, status: null }));
      ws.on('unexpected-response', (_req, res) => resolve({ ws, messages, status: res.statusCode ?? 0 }));
      ws.on('error', () => undefined);
    });
  const until = async (check: () => boolean, ms = 5000) => {
    const end = Date.now() + ms;
    while (!check()) {
      if (Date.now() > end) throw new Error('timed out');
      await sleep(20);
    }
  };

  it(
    'admits exactly the two parties, relays SDP/ICE between them only, and closes the room ' + 'when one leaves',
    async () => {
      const rec = await h.recruiter();
      const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 1 });
      await createJob(h, { event });
      const seeker = await h.seeker();
      await join(h, seeker, event.slug);
      const match = await matchOf(h, seeker.user.id);
      const svc = matchesService(h);

      // Before acceptance there is no room.
      const early = await svc.interviewRoomUrl({ userId: seeker.user.id, matchId: match.id }).catch((e) => e);
      expect(early.code).toBe('MATCH_NOT_ACCEPTED');
      await svc.accept({ userId: seeker.user.id, matchId: match.id });
      await svc.accept({ userId: rec.user.id, matchId: match.id });
      const seekerRoom = new URL((await svc.interviewRoomUrl({ userId: seeker.user.id, matchId: match.id })).roomUrl);
      const recRoom = new URL((await svc.interviewRoomUrl({ userId: rec.user.id, matchId: match.id })).roomUrl);
      expect(seekerRoom.origin).toBe(baseUrl);
      const signal = (u: URL) => `${u.pathname}/signal${u.search}`;
      const seekerCookie = await sessionCookie(seeker);
      const recCookie = await sessionCookie(rec);

      // Refusals happen before the upgrade, as plain HTTP errors.
      expect((await open(signal(seekerRoom), null)).status).toBe(303); // no session → sign in
      expect((await open(signal(seekerRoom), recCookie)).status).toBe(403); // someone else's room link
      expect((await open(`${seekerRoom.pathname}/signal?t=forged.token`, seekerCookie)).status).toBe(403);
      expect((await open(signal(seekerRoom), seekerCookie, 'https://evil.example')).status).toBe(403);
      const stranger = await h.seeker();
      expect((await open(signal(seekerRoom), await sessionCookie(stranger))).status).toBe(403);

      const s = await open(signal(seekerRoom), seekerCookie);
      expect(s.status).toBeNull();
      await until(() => s.messages.some((m) => m.type === 'waiting'));
      const r = await open(signal(recRoom), recCookie);
      await until(() => r.messages.some((m) => m.type === 'start') && s.messages.some((m) => m.type === 'start'));
      expect(r.messages.find((m) => m.type === 'start')).toEqual({ type: 'start', offerer: true });
      expect(s.messages.find((m) => m.type === 'start')).toEqual({ type: 'start', offerer: false });
      // Both in the room: the interview clock starts (match workflow), and both pages are told the same clock.
      expect(match.interview_started_at).toBeNull();
      await until(() => r.messages.some((m) => m.type === 'clock') && s.messages.some((m) => m.type === 'clock'));
      const clock = r.messages.find((m) => m.type === 'clock')!;
      expect(s.messages.find((m) => m.type === 'clock')).toEqual(clock);
      const started = await h.knex('matches').where({ id: match.id }).first();
      expect(clock).toEqual({
        type: 'clock',
        started_at: started.interview_started_at.toISOString(),
        ends_at: started.interview_ends_at.toISOString(),
      });
      expect(started.interview_ends_at.getTime() - started.interview_started_at.getTime()).toBe(600000);
      expect(started.interview_started_at.getTime()).toBeGreaterThanOrEqual(started.accepted_at.getTime());

      r.ws.send(JSON.stringify({ type: 'offer', sdp: { type: 'offer', sdp: 'v=0' } }));
      s.ws.send(JSON.stringify({ type: 'answer', sdp: { type: 'answer', sdp: 'v=0' } }));
      s.ws.send(JSON.stringify({ type: 'candidate', candidate: { candidate: 'c', sdpMid: '0' } }));
      s.ws.send(JSON.stringify({ type: 'room-closed' })); // not relayable
      s.ws.send('not json');
      await until(() => s.messages.some((m) => m.type === 'offer') && r.messages.some((m) => m.type === 'candidate'));
      expect(r.messages.filter((m) => m.type === 'answer')).toHaveLength(1);
      expect(r.messages.filter((m) => m.type === 'room-closed')).toHaveLength(0);
      expect(s.messages.filter((m) => m.type === 'answer' || m.type === 'candidate')).toHaveLength(0); // nothing echoes back

      // A second tab of the same party replaces the first.
      const s2 = await open(signal(seekerRoom), seekerCookie);
      await until(() => s.ws.readyState === WebSocket.CLOSED);
      await until(() => s2.messages.some((m) => m.type === 'start'));
      // Meeting again keeps the clock that is running.
      await until(() => s2.messages.some((m) => m.type === 'clock'));
      expect(s2.messages.find((m) => m.type === 'clock')).toEqual(clock);

      // Leaving (the form on the room page) completes the interview and closes both sockets.
      const web = new WebClient(h.app);
      web.cookies.set('jf_session', recCookie.slice('jf_session='.length));
      const page = await web.get(`${recRoom.pathname}${recRoom.search}`);
      expect(page.statusCode).toBe(200);
      const left = await web.post(`/rooms/${match.id}/complete`, {}, { csrf: WebClient.csrfOf(page.body) });
      expect(left.statusCode).toBe(303);
      await until(
        () => s2.messages.some((m) => m.type === 'room-closed') && r.messages.some((m) => m.type === 'room-closed'),
      );
      await until(() => r.ws.readyState === WebSocket.CLOSED && s2.ws.readyState === WebSocket.CLOSED);
      const done = await matchOf(h, seeker.user.id, { status: 'completed' });
      expect(done.completed_by).toBe(rec.user.id);
      // The room is closed for good.
      expect((await open(signal(seekerRoom), seekerCookie)).status).toBe(409);
      const after = await web.get(`${recRoom.pathname}${recRoom.search}`);
      expect(after.statusCode).toBe(409);
      expect(after.body).toContain('The interview room is closed');
    },
  );
});
