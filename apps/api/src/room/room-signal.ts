import type { FastifyBaseLogger } from 'fastify';
import type { WebSocket } from 'ws';
import type { MatchPartyRole } from '#workflows/matches/contract';
import { MAX_MESSAGE_BYTES, RELAYED, type RoomHub } from './room-hub';
import type { RoomIceConfig } from './room-ice';

/** How often the room's socket pings its browser (one left unanswered until the next: the socket is dropped). */
const PING_MS = 10_000;

/** The party a room token admitted. */
export interface RoomParty {
  userId: string;
  role: MatchPartyRole;
  /** When the room URL that admitted this party expires (its TURN credential expires with it). */
  expiresAt: Date;
}

export interface SignalSocketDeps {
  hub: RoomHub;
  log: Pick<FastifyBaseLogger, 'warn'>;
  /** The party's ICE servers, with its TURN credential. */
  iceConfig: (matchId: string, party: RoomParty) => RoomIceConfig;
  /** One party is in the room (the match records the first arrival). */
  arrive: (matchId: string, userId: string) => Promise<void>;
  /** Both are in the room: the interview clock starts. */
  startClock: (matchId: string, userId: string) => Promise<void>;
}

/**
 * One party's signalling socket, once admitted: relays what the page may send to the other side,
 * pings to notice a vanished network, hands the page its ICE servers, then joins the hub.
 */
export function serveSignalSocket(deps: SignalSocketDeps, socket: WebSocket, matchId: string, party: RoomParty): void {
  const { hub, log } = deps;
  // The page says `bye` when it leaves (step out, reload, tab closed): gone at once, not away.
  let bye = false;
  socket.on('message', (data, isBinary) => {
    if (isBinary) return;
    const msg = parseMessage(data.toString());
    if (msg?.type === 'bye') bye = true;
    else if (typeof msg?.type === 'string' && RELAYED.has(msg.type)) hub.relay(matchId, party.role, socket, msg);
  });
  const ping = keepAlive(socket);
  socket.on('close', () => {
    clearInterval(ping);
    hub
      .leave(matchId, party.role, socket, bye)
      .catch((err) => log.warn({ err, matchId }, `room ${matchId}: leaving could not be recorded`));
  });
  // The peer connection's ICE servers, with this party's TURN credential (expiring with its
  // room URL): on this socket only, before `start`, so neither the HTML nor a log carries it.
  socket.send(JSON.stringify({ type: 'ice', ...deps.iceConfig(matchId, party) }));
  void deps.arrive(matchId, party.userId);
  hub.join(matchId, party.role, socket).then(
    (both) => (both ? deps.startClock(matchId, party.userId) : undefined),
    (err) => {
      log.warn({ err, matchId }, `room ${matchId}: joining failed`);
      socket.close(1011, 'try again');
    },
  );
}

function parseMessage(text: string): { type?: unknown } | null {
  if (text.length > MAX_MESSAGE_BYTES) return null;
  try {
    return JSON.parse(text) as { type?: unknown };
  } catch {
    return null;
  }
}

/** A person whose network vanished sends no close: a ping unanswered for a round is a drop. */
function keepAlive(socket: WebSocket): NodeJS.Timeout {
  let alive = true;
  socket.on('pong', () => (alive = true));
  const ping = setInterval(() => {
    if (!alive) return socket.terminate();
    alive = false;
    socket.ping();
  }, PING_MS);
  ping.unref();
  return ping;
}
