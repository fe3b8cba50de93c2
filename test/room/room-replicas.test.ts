import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyInstance } from 'fastify';
import type { Knex } from 'knex';
import WebSocket from 'ws';
import { buildApp } from '#apps/api/src/app';
import { createKnex } from '#db/knex';
import { freePort } from '#dev/ports';
import type { Harness, TestUser } from '../helpers/harness';
import { createWebHarness } from '../helpers/browser';
import { WebClient } from '../helpers/web-client';
import { createJob, createLiveEvent, join, matchOf, matchesService } from '../matches/fixtures';

/**
 * The room's signalling between two API instances on one database (decision 0254), over real
 * sockets: presence and "both in the room" decided once across replicas, messages relayed through
 * PostgreSQL in order (one larger than a NOTIFY payload through room_signal_messages), a dropped
 * socket away for ROOM_RECONNECT_GRACE_MS then gone, a reconnect to the other replica within it,
 * a newer socket on one replica replacing the older on the other, the end closing both, and a
 * replica stopping handing its party to the other without ending the interview.
 */
describe('interview room signalling across two API replicas', () => {
  const GRACE_MS = 1500;
  let h: Harness;
  let baseA: string;
  let baseB: string;
  let appB: FastifyInstance;
  let knexB: Knex;
  beforeAll(async () => {
    const env = {
      MATCHMAKER_INTERVAL_MS: '50',
      QUEUE_ENTRY_TTL_MS: '600000',
      MATCH_ACCEPT_WINDOW_MS: '600000',
      INTERVIEW_LENGTH_MS: '600000',
      ROOM_RECONNECT_GRACE_MS: String(GRACE_MS),
    };
    ({ h, baseUrl: baseA } = await createWebHarness(env));
    const port = await freePort();
    baseB = `http://127.0.0.1:${port}`;
    knexB = createKnex(h.dbUrl, 3);
    appB = await buildApp({
      config: { ...h.config, PUBLIC_BASE_URL: baseB, publicBaseUrl: baseB, LOG_LEVEL: 'error' },
      knex: knexB,
      temporal: h.temporal,
      logger: false,
    });
    await appB.listen({ port, host: '127.0.0.1' });
  });
  let bClosed = false;
  afterAll(async () => {
    if (!bClosed) await appB?.close();
    await knexB?.destroy();
    await h?.close();
  });

  type Msg = Record<string, unknown> & { type: string };
  interface Sock {
    ws: WebSocket;
    messages: Msg[];
    closeCode: number | null;
  }
  const sessionCookie = async (u: TestUser) =>
    `jf_session=${(await h.app.services.accounts.sessions.create(u.user.id, { ip: '127.0.0.1', userAgent: 'test' })).token}`;
  const open = (base: string, path: string, cookie: string) =>
    new Promise<Sock>((resolve, reject) => {
      const ws = new WebSocket(`${base.replace('http', 'ws')}${path}`, { headers: { cookie, origin: base } });
      const s: Sock = { ws, messages: [], closeCode: null };
      ws.on('message', (d) => s.messages.push(JSON.parse(d.toString()) as Msg));
      ws.on('close', (code) => (s.closeCode = code));
      ws.on('open', () => resolve(s));
      ws.on('unexpected-response', (req, res) => {
        req.destroy();
        reject(new Error(`refused: ${res.statusCode}`));
      });
      ws.on('error', () => undefined);
    });
  const until = async (check: () => boolean | Promise<boolean>, ms = 10_000) => {
    const end = Date.now() + ms;
    while (!(await check())) {
      if (Date.now() > end) throw new Error('timed out');
      await sleep(20);
    }
  };
  const of = (s: Sock, type: string) => s.messages.filter((m) => m.type === type);

  /** An accepted match; the signalling paths of both parties and their session cookies. */
  const acceptedMatch = async () => {
    const rec = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: rec.teamId!, slots: 1 });
    await createJob(h, { event });
    const seeker = await h.seeker();
    await join(h, seeker, event.slug);
    const match = await matchOf(h, seeker.user.id);
    const svc = matchesService(h);
    await svc.accept({ userId: seeker.user.id, matchId: match.id });
    await svc.accept({ userId: rec.user.id, matchId: match.id });
    const signal = async (userId: string) => {
      const u = new URL((await svc.interviewRoomUrl({ userId, matchId: match.id })).roomUrl);
      return `${u.pathname}/signal${u.search}`;
    };
    return {
      matchId: match.id,
      rec,
      seekerPath: await signal(seeker.user.id),
      recPath: await signal(rec.user.id),
      seekerCookie: await sessionCookie(seeker),
      recCookie: await sessionCookie(rec),
    };
  };

  it('two replicas: one start each, the clock once, messages in order (a large one through the table)', async () => {
    const m = await acceptedMatch();
    // Both join at once, one on each replica: exactly one of the two joins sees both present.
    const [s, r] = await Promise.all([open(baseA, m.seekerPath, m.seekerCookie), open(baseB, m.recPath, m.recCookie)]);
    await until(() => of(s, 'start').length > 0 && of(r, 'start').length > 0);
    await until(() => of(s, 'clock').length > 0 && of(r, 'clock').length > 0);
    await sleep(300);
    expect(of(r, 'start')).toEqual([{ type: 'start', offerer: true }]);
    expect(of(s, 'start')).toEqual([{ type: 'start', offerer: false }]);
    expect(of(s, 'clock')).toEqual(of(r, 'clock'));
    expect(of(s, 'clock')).toHaveLength(1);

    // An offer far over NOTIFY's 8000 bytes, then candidates: they arrive whole and in order.
    const sdp = `v=0\r\n${'a=x-padding:' + 'z'.repeat(200) + '\r\n'}`.repeat(100);
    expect(sdp.length).toBeGreaterThan(20_000);
    r.ws.send(JSON.stringify({ type: 'offer', sdp: { type: 'offer', sdp } }));
    for (let i = 0; i < 5; i++) r.ws.send(JSON.stringify({ type: 'candidate', candidate: { candidate: `c${i}` } }));
    await until(() => of(s, 'candidate').length === 5);
    expect(s.messages.filter((x) => x.type === 'offer' || x.type === 'candidate').map((x) => x.type)).toEqual([
      'offer',
      'candidate',
      'candidate',
      'candidate',
      'candidate',
      'candidate',
    ]);
    expect((of(s, 'offer')[0].sdp as { sdp: string }).sdp).toBe(sdp);
    // It went through the table (NOTIFY refuses it), and the replica that delivered it took it.
    expect(await h.knex('room_signal_messages')).toEqual([]);
    await until(async () => {
      const { rows } = await h.knex.raw<{ rows: Array<{ ins: number; del: number }> }>(
        "SELECT n_tup_ins::int AS ins, n_tup_del::int AS del FROM pg_stat_user_tables WHERE relname = 'room_signal_messages'",
      );
      return rows[0]?.ins === 1 && rows[0]?.del === 1;
    }, 30_000); // an idle backend reports its counts within 10 s
    // The answer goes back the other way.
    s.ws.send(JSON.stringify({ type: 'answer', sdp: { type: 'answer', sdp: 'v=0' } }));
    await until(() => of(r, 'answer').length === 1);

    // Ending on replica A closes the socket held by replica B too.
    const web = new WebClient(h.app);
    web.cookies.set('jf_session', m.recCookie.slice('jf_session='.length));
    const room = await web.get(m.recPath.replace('/signal', ''));
    const done = await web.post(`/rooms/${m.matchId}/complete`, {}, { csrf: WebClient.csrfOf(room.body) });
    expect(done.statusCode).toBe(303);
    await until(() => of(r, 'room-closed').length === 1 && r.closeCode === 1000 && s.closeCode === 1000);
    expect(await h.knex('room_presence').where({ match_id: m.matchId })).toEqual([]);
  }, 60_000);

  it('a dropped socket is away, comes back on the other replica within the grace, and is gone after it', async () => {
    const m = await acceptedMatch();
    const r = await open(baseB, m.recPath, m.recCookie);
    await until(() => of(r, 'waiting').length === 1);
    const s1 = await open(baseA, m.seekerPath, m.seekerCookie);
    await until(() => of(r, 'start').length === 1);
    await until(() => of(r, 'clock').length === 1);
    const clock = of(r, 'clock')[0];

    // A drop (no `bye`): away, not gone; the other side is told it is reconnecting.
    s1.ws.terminate();
    await until(() => of(r, 'peer-away').length === 1);
    expect(of(r, 'peer-left')).toHaveLength(0);
    // Back within the grace, through the other replica: a fresh call, the same clock.
    const s2 = await open(baseB, m.seekerPath, m.seekerCookie);
    await until(() => of(r, 'start').length === 2 && of(s2, 'start').length === 1);
    await until(() => of(s2, 'clock').length === 1);
    expect(of(s2, 'clock')[0]).toEqual(clock);
    await sleep(GRACE_MS + 500);
    expect(of(r, 'peer-left')).toHaveLength(0);

    // A newer socket of the seeker on replica A replaces the one on replica B.
    const s3 = await open(baseA, m.seekerPath, m.seekerCookie);
    await until(() => s2.closeCode === 4000);
    await until(() => of(s3, 'start').length === 1);

    // Dropped and not back: after the grace the other side is told the seeker left.
    const droppedAt = Date.now();
    s3.ws.terminate();
    await until(() => of(r, 'peer-left').length === 1, GRACE_MS + 10_000);
    expect(Date.now() - droppedAt).toBeGreaterThanOrEqual(GRACE_MS - 100);
    expect(await h.knex('room_presence').where({ match_id: m.matchId, role: 'seeker' })).toEqual([]);

    // Saying `bye` is leaving at once.
    const s4 = await open(baseA, m.seekerPath, m.seekerCookie);
    await until(() => of(r, 'start').length === 4);
    s4.ws.send(JSON.stringify({ type: 'bye' }));
    const byeAt = Date.now();
    s4.ws.close();
    await until(() => of(r, 'peer-left').length === 2);
    expect(Date.now() - byeAt).toBeLessThan(GRACE_MS);
    r.ws.close();
  }, 60_000);

  it('a replica stopping is not the end: its sockets close and the party comes back on the other', async () => {
    const m = await acceptedMatch();
    const s = await open(baseA, m.seekerPath, m.seekerCookie);
    const r1 = await open(baseB, m.recPath, m.recCookie);
    await until(() => of(s, 'start').length === 1 && of(s, 'clock').length === 1);
    await appB.close();
    bClosed = true;
    // Closed (1012 or, when the WebSocket plugin closes it first, without a code), not ended.
    await until(() => r1.closeCode !== null);
    expect(r1.closeCode).not.toBe(1000);
    expect(r1.closeCode).not.toBe(4000);
    expect(of(r1, 'room-closed')).toHaveLength(0);
    await until(() => of(s, 'peer-away').length === 1);
    const r2 = await open(baseA, m.recPath, m.recCookie);
    await until(() => of(s, 'start').length === 2 && of(r2, 'start').length === 1 && of(r2, 'clock').length === 1);
    expect(of(r2, 'clock')[0]).toEqual(of(s, 'clock')[0]);
    expect(of(s, 'peer-left')).toHaveLength(0);
    const match = await h.knex('matches').where({ id: m.matchId }).first();
    expect(match.status).toBe('accepted');
    s.ws.close();
    r2.ws.close();
  }, 60_000);
});
