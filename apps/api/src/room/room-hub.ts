import { randomUUID } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import type { Knex } from 'knex';
import type { WebSocket } from 'ws';
import type { MatchPartyRole } from '#workflows/matches/contract';
import type { OtherPresence, RoomRepository } from '#db/room/room-repository';

/**
 * Signalling messages the peers may relay to each other (SDP, ICE, whether camera and microphone
 * are on, an ICE restart asked for and the call connected again; nothing else passes).
 */
export const RELAYED = new Set(['offer', 'answer', 'candidate', 'media-state', 'restart', 'connected']);
export const MAX_MESSAGE_BYTES = 64 * 1024;

/** The NOTIFY channel the replicas share (decision 0254). */
export const ROOM_CHANNEL = 'jobfair_room';
/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more: larger messages go through room_signal_messages. */
const INLINE_MAX_BYTES = 7_900;
/** Each replica refreshes its presence rows this often; a row older than STALE_MS is a replica that died. */
const HEARTBEAT_MS = 5_000;
const STALE_MS = 4 * HEARTBEAT_MS;
/** A large message nobody took (its addressee gone) is deleted after this. */
const MESSAGE_TTL_MS = 5 * 60_000;
const RELISTEN_MS = 1_000;

type Role = MatchPartyRole;
const otherOf = (r: Role): Role => (r === 'seeker' ? 'recruiter' : 'seeker');

/** What travels on the channel, one JSON object per NOTIFY. */
type Envelope =
  /** A message for the party `to` of room `m` (inline, or the id of its room_signal_messages row). */
  | { k: 'msg'; m: string; to: Role; d: unknown }
  | { k: 'ref'; m: string; to: Role; id: string }
  /** Party `role` joined on connection `conn`: any other socket of that party, anywhere, is replaced. */
  | { k: 'joined'; m: string; role: Role; conn: string; seq: number }
  /** The interview ended: every socket of the room, on every replica, is told and closed. */
  | { k: 'close'; m: string; reason: string };

interface LocalParty {
  socket: WebSocket;
  conn: string;
  /** The join's place in the room's order of joins (room_presence_seq), once recorded. */
  seq: number | null;
  /** The join's presence write; a leave waits for it so the two never cross. */
  joined: Promise<unknown>;
}

export interface RoomHubDeps {
  /** Presence, large messages and NOTIFY (db/room/room-repository.ts). */
  repository: RoomRepository;
  /** Settings for the LISTEN connection of its own (outside the pool: it stays open). */
  connection: pg.ClientConfig;
  /** How long a dropped socket still counts as in the room (ROOM_RECONNECT_GRACE_MS). */
  graceMs: number;
  log: Pick<FastifyBaseLogger, 'warn'>;
}

/** The hub's LISTEN connection: the pool's settings, for a client of its own outside the pool (it stays open). */
export function listenConnectionOf(knex: Knex): pg.ClientConfig {
  const settings = (knex.client as { connectionSettings?: pg.ClientConfig | string }).connectionSettings;
  return typeof settings === 'string' ? { connectionString: settings } : { ...settings };
}

/**
 * Two-party signalling for the built-in interview room, shared between API replicas (decision
 * 0254): the two people's sockets may be held by different processes.
 *
 * - Presence is in PostgreSQL (`room_presence`, one row per party): a join takes the room's
 *   advisory lock, records its connection and reads the other party's row, so of two joins on two
 *   replicas exactly one sees both present and starts the call (the recruiter offers) and the clock.
 * - Messages for a party whose socket this process does not hold go out on NOTIFY `jobfair_room`
 *   (one LISTEN connection per process); the process holding that socket delivers them, in the
 *   order they were sent (one chain per room on each side). Messages over 7900 bytes go through
 *   `room_signal_messages` and the NOTIFY carries the row id.
 * - A socket that drops is not a leave at once: the party is "away" for ROOM_RECONNECT_GRACE_MS
 *   (the other side is told `peer-away`, its page says "reconnecting"); back within it, the call
 *   starts again; not back, the other side is told `peer-left`. A page that leaves says `bye` first
 *   and leaves at once.
 * Each room holds at most one socket per role (a reload or a reconnect replaces the older one).
 */
export class RoomHub {
  private readonly rooms = new Map<string, Map<Role, LocalParty>>();
  private readonly replica = randomUUID();
  /** Per room: outgoing publications in order, and incoming deliveries in order. */
  private readonly outChains = new Map<string, Promise<void>>();
  private readonly inChains = new Map<string, Promise<void>>();
  private readonly graceTimers = new Set<NodeJS.Timeout>();
  private listener: pg.Client | null = null;
  private heartbeat: NodeJS.Timeout | null = null;
  private closed = false;

  constructor(private readonly deps: RoomHubDeps) {}

  /** Opens the LISTEN connection (re-opened after a loss) and starts the presence heartbeat. */
  async start(): Promise<void> {
    await this.listen();
    this.heartbeat = setInterval(() => void this.beat(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  /** Adds the socket; answers whether both parties are now in the room (then both were sent `start`). */
  async join(matchId: string, role: Role, socket: WebSocket): Promise<boolean> {
    const conn = randomUUID();
    const room = this.local(matchId);
    const previous = room.get(role);
    const joined = this.recordJoin(matchId, role, conn);
    const party: LocalParty = { socket, conn, seq: null, joined };
    room.set(role, party);
    if (previous && previous.socket !== socket) previous.socket.close(4000, 'replaced by a newer connection');
    const { other, seq } = await joined;
    party.seq = seq;
    if (this.rooms.get(matchId)?.get(role) !== party) return false; // replaced or gone meanwhile
    if (other === 'present') {
      // Both present: each side starts a fresh peer connection; the recruiter offers.
      await this.deliver(matchId, 'recruiter', { type: 'start', offerer: true });
      await this.deliver(matchId, 'seeker', { type: 'start', offerer: false });
      return true;
    }
    this.send(socket, { type: 'waiting' });
    if (other === 'away') this.send(socket, { type: 'peer-away' });
    return false;
  }

  /** A message from the server to everyone in the room (the interview clock). */
  async broadcast(matchId: string, message: unknown): Promise<void> {
    await this.deliver(matchId, 'recruiter', message);
    await this.deliver(matchId, 'seeker', message);
  }

  /**
   * The socket closed. `bye`: the page said it leaves (step out, reload, tab closed), so the
   * other side is told at once; otherwise the party is away until it reconnects or the grace ends.
   */
  async leave(matchId: string, role: Role, socket: WebSocket, bye: boolean): Promise<void> {
    const room = this.rooms.get(matchId);
    const mine = room?.get(role);
    if (!room || !mine || mine.socket !== socket) return;
    room.delete(role);
    if (room.size === 0) this.rooms.delete(matchId);
    await mine.joined.catch(() => undefined);
    if (bye) return this.gone(matchId, role, mine.conn);
    const away = await this.deps.repository.markAway(matchId, role, mine.conn);
    if (!away) return; // replaced meanwhile by a newer connection
    await this.deliver(matchId, otherOf(role), { type: 'peer-away' });
    // Stopping: no timer outlives the process (the other page stops waiting by itself).
    if (this.closed) return;
    const timer = setTimeout(() => {
      this.graceTimers.delete(timer);
      void this.gone(matchId, role, mine.conn, true).catch((err) =>
        this.deps.log.warn({ err, matchId }, `room ${matchId}: leaving after the reconnection grace failed`),
      );
    }, this.deps.graceMs);
    timer.unref();
    this.graceTimers.add(timer);
  }

  relay(matchId: string, from: Role, socket: WebSocket, message: unknown): void {
    if (this.rooms.get(matchId)?.get(from)?.socket !== socket) return;
    void this.deliver(matchId, otherOf(from), message);
  }

  /** The interview ended: tell everyone in the room, on every replica, then close their sockets. */
  async close(matchId: string, reason: string): Promise<void> {
    this.closeLocal(matchId, reason);
    await this.deps.repository.deleteRoom(matchId);
    await this.publish(matchId, { k: 'close', m: matchId, reason });
  }

  /**
   * This process stops (a deploy, a scale-down): its people are away (the other side is told) and
   * their sockets close with no `room-closed` (1012, or no code when the WebSocket plugin's own
   * preClose, which runs first, closed them), so the pages reconnect, to another replica, within
   * the grace.
   */
  async shutdown(): Promise<void> {
    const held = [...this.rooms].flatMap(([m, room]) => [...room].map(([role, p]) => ({ m, role, p })));
    for (const { m, role, p } of held) {
      await this.leave(m, role, p.socket, false).catch(() => undefined);
      p.socket.close(1012, 'server restarting; reconnect');
    }
    this.closed = true;
    for (const t of this.graceTimers) clearTimeout(t);
    this.graceTimers.clear();
    if (this.heartbeat) clearInterval(this.heartbeat);
    const l = this.listener;
    this.listener = null;
    if (l) {
      l.removeAllListeners();
      l.on('error', () => undefined);
      await l.end().catch(() => undefined);
    }
  }

  // --- presence ---------------------------------------------------------------------------

  /** Records the connection under the room's lock; answers what the other party's row says. */
  private recordJoin(matchId: string, role: Role, conn: string): Promise<{ other: OtherPresence; seq: number }> {
    return this.deps.repository.recordJoin({
      matchId,
      role,
      connId: conn,
      replicaId: this.replica,
      staleMs: STALE_MS,
      channel: ROOM_CHANNEL,
      // At commit: the other replicas close any older socket of this party.
      notice: (seq) => JSON.stringify({ k: 'joined', m: matchId, role, conn, seq } satisfies Envelope),
    });
  }

  /** The party left (said bye, or its grace ended away): its row goes; the other side is told. */
  private async gone(matchId: string, role: Role, conn: string, onlyIfAway = false): Promise<void> {
    const removed = await this.deps.repository.deleteParty(matchId, role, conn, onlyIfAway);
    if (removed) await this.deliver(matchId, otherOf(role), { type: 'peer-left' });
  }

  private async beat(): Promise<void> {
    if (this.closed || (!this.rooms.size && !this.graceTimers.size)) return;
    try {
      await this.deps.repository.touchReplica(this.replica);
      await this.deps.repository.deleteExpiredMessages(MESSAGE_TTL_MS);
    } catch (err) {
      this.deps.log.warn({ err }, 'room presence heartbeat failed');
    }
  }

  // --- delivery ---------------------------------------------------------------------------

  /** To the party's socket if this process holds it, else to the replicas through PostgreSQL. */
  private async deliver(matchId: string, to: Role, message: unknown): Promise<void> {
    const here = this.rooms.get(matchId)?.get(to);
    if (here) return this.send(here.socket, message);
    await this.publish(matchId, { k: 'msg', m: matchId, to, d: message });
  }

  /** NOTIFY in order per room; a payload too large for NOTIFY goes into room_signal_messages. */
  private publish(matchId: string, env: Envelope): Promise<void> {
    const prev = this.outChains.get(matchId) ?? Promise.resolve();
    const next = prev.then(async () => {
      const payload = JSON.stringify(env);
      if (Buffer.byteLength(payload) <= INLINE_MAX_BYTES || env.k !== 'msg')
        return this.deps.repository.notify(ROOM_CHANNEL, payload);
      await this.deps.repository.notifyStored(ROOM_CHANNEL, {
        matchId: env.m,
        to: env.to,
        body: JSON.stringify(env.d),
      });
    });
    const settled = next.catch((err) =>
      this.deps.log.warn({ err, matchId }, `room ${matchId}: a signalling message could not be published`),
    );
    this.outChains.set(matchId, settled);
    void settled.then(() => {
      if (this.outChains.get(matchId) === settled) this.outChains.delete(matchId);
    });
    return settled;
  }

  private onNotification(n: pg.Notification): void {
    if (n.channel !== ROOM_CHANNEL || !n.payload) return;
    let env: Envelope;
    try {
      env = JSON.parse(n.payload) as Envelope;
    } catch {
      return;
    }
    if (!this.rooms.has(env.m)) return; // nobody of this room here
    const prev = this.inChains.get(env.m) ?? Promise.resolve();
    const next = prev
      .then(() => this.receive(env))
      .catch((err) => this.deps.log.warn({ err, matchId: env.m }, `room ${env.m}: a signalling message was lost`));
    this.inChains.set(env.m, next);
    void next.then(() => {
      if (this.inChains.get(env.m) === next) this.inChains.delete(env.m);
    });
  }

  private async receive(env: Envelope): Promise<void> {
    const room = this.rooms.get(env.m);
    if (!room) return;
    if (env.k === 'joined') {
      // Only for a later join: a NOTIFY may arrive after this party joined here again.
      const p = room.get(env.role);
      if (p && p.conn !== env.conn && p.seq !== null && p.seq < env.seq) {
        room.delete(env.role);
        p.socket.close(4000, 'replaced by a newer connection');
      }
    } else if (env.k === 'close') {
      this.closeLocal(env.m, env.reason);
    } else if (env.k === 'msg') {
      const p = room.get(env.to);
      if (p) this.send(p.socket, env.d);
    } else if (env.k === 'ref') {
      const p = room.get(env.to);
      if (!p) return;
      const body = await this.deps.repository.takeMessage(env.id);
      // Its socket may have been replaced while the row was read: the current one, if still here.
      const now = this.rooms.get(env.m)?.get(env.to);
      if (body && now) now.socket.send(body);
    }
  }

  /** The LISTEN connection, re-opened after a loss (messages published meanwhile are lost; the pages restart the call). */
  private async listen(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client(this.deps.connection);
    client.on('notification', (n) => this.onNotification(n));
    client.on('error', (err) => this.deps.log.warn({ err }, 'room signalling: LISTEN connection lost'));
    client.on('end', () => {
      if (this.listener === client) this.listener = null;
      if (!this.closed) setTimeout(() => void this.listen(), RELISTEN_MS).unref();
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${ROOM_CHANNEL}`);
      this.listener = client;
    } catch (err) {
      this.deps.log.warn({ err }, 'room signalling: LISTEN failed; retrying');
      await client.end().catch(() => undefined);
    }
  }

  private local(matchId: string): Map<Role, LocalParty> {
    let room = this.rooms.get(matchId);
    if (!room) this.rooms.set(matchId, (room = new Map()));
    return room;
  }

  private closeLocal(matchId: string, reason: string): void {
    const room = this.rooms.get(matchId);
    if (!room) return;
    this.rooms.delete(matchId);
    for (const p of room.values()) {
      this.send(p.socket, { type: 'room-closed', reason });
      p.socket.close(1000, 'interview ended');
    }
  }

  private send(socket: WebSocket | undefined, message: unknown): void {
    if (socket && socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  }
}
