import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { Client as PgClient, type Notification } from 'pg';
import { currentUser } from '../web/core';

/** What the `jobfair_live` channel carries (db/migrations/20261122110001_live_notify.ts). */
interface LiveChange {
  kind: 'match' | 'queue_entry';
  id: string;
  status: string;
  previous_status?: string | null;
  seeker_user_id: string;
  team_id?: string;
  live_event_id?: string | null;
}

interface Listener {
  userId: string;
  teamId: string | null;
  reply: FastifyReply;
}

const HEARTBEAT_MS = 25_000;
const RECONNECT_MS = 1_000;

/**
 * Live updates for open pages: server-sent events on `/live` (docs/decisions/0110-live-updates.md).
 * One LISTEN connection per API process on `jobfair_live`; every projection write of a match or a
 * queue entry arrives there (a trigger, in the writer's transaction) and goes to the streams of
 * the seeker and of the team's recruiters, with their current pending count. The browser refreshes
 * the parts of the page that show state, the tab title, and (where permitted) notifies.
 */
const livePages: FastifyPluginAsync = async (app) => {
  const listeners = new Set<Listener>();
  const repos = app.services.deps.repos;
  const eventTeams = new Map<string, string | null>();
  let pg: PgClient | null = null;
  let closed = false;

  const pendingFor = (l: Listener) =>
    repos.matches.countAwaiting(l.teamId ? { teamId: l.teamId } : { seekerUserId: l.userId });
  const send = (l: Listener, event: string, data: unknown) => {
    if (!l.reply.raw.writableEnded) l.reply.raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };
  const teamOfEvent = async (eventId: string): Promise<string | null> => {
    if (!eventTeams.has(eventId)) eventTeams.set(eventId, (await repos.events.findById(eventId))?.team_id ?? null);
    return eventTeams.get(eventId) ?? null;
  };

  const deliver = async (change: LiveChange) => {
    const team =
      change.kind === 'match'
        ? (change.team_id ?? null)
        : change.live_event_id
          ? await teamOfEvent(change.live_event_id)
          : null;
    for (const l of listeners) {
      const concerned = l.userId === change.seeker_user_id || (l.teamId !== null && l.teamId === team);
      if (!concerned) continue;
      const pending = await pendingFor(l).catch(() => null);
      // The recruiter side sees the queue's movement but not whose entry moved.
      const forSeeker = l.userId === change.seeker_user_id;
      send(l, 'change', {
        kind: change.kind,
        id: forSeeker || change.kind === 'match' ? change.id : null,
        status: change.status,
        previous_status: change.previous_status ?? null,
        pending,
        role: forSeeker ? 'seeker' : 'recruiter',
      });
    }
  };

  const onNotification = (n: Notification) => {
    if (n.channel !== 'jobfair_live' || !n.payload) return;
    let change: LiveChange;
    try {
      change = JSON.parse(n.payload) as LiveChange;
    } catch {
      return;
    }
    deliver(change).catch((err) => app.log.warn({ err }, 'live update not delivered'));
  };

  /** The LISTEN connection, re-opened after a loss (open pages miss what happened meanwhile; they re-read on reconnect). */
  const connect = async (): Promise<void> => {
    if (closed || !app.config.DATABASE_URL) return;
    const client = new PgClient({ connectionString: app.config.DATABASE_URL });
    client.on('notification', onNotification);
    client.on('error', (err) => app.log.warn({ err }, 'live updates: LISTEN connection lost'));
    client.on('end', () => {
      if (pg === client) pg = null;
      if (!closed) setTimeout(() => void connect().catch(() => undefined), RECONNECT_MS).unref();
    });
    try {
      await client.connect();
      await client.query('LISTEN jobfair_live');
      pg = client;
    } catch (err) {
      app.log.warn({ err }, 'live updates: LISTEN failed; retrying');
      await client.end().catch(() => undefined);
    }
  };
  app.addHook('onReady', connect);
  app.addHook('preClose', async () => {
    closed = true;
    for (const l of listeners) l.reply.raw.end();
    listeners.clear();
    await pg?.end().catch(() => undefined);
  });

  app.get('/live', async (request, reply) => {
    const { user, membership } = currentUser(request);
    const l: Listener = {
      userId: user.id,
      teamId: user.role === 'recruiter' ? (membership?.team_id ?? null) : null,
      reply,
    };
    reply.hijack();
    reply.raw.writeHead(200, {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    listeners.add(l);
    send(l, 'hello', { pending: await pendingFor(l) });
    const beat = setInterval(() => !reply.raw.writableEnded && reply.raw.write(': keep-alive\n\n'), HEARTBEAT_MS);
    request.raw.on('close', () => {
      clearInterval(beat);
      listeners.delete(l);
    });
  });
};

export default livePages;
