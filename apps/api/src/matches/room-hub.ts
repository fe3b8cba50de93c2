import type { WebSocket } from 'ws';
import type { MatchPartyRole } from '#workflows/matches/contract';

/**
 * Signalling messages the peers may relay to each other (SDP, ICE, whether camera and microphone
 * are on, an ICE restart asked for and the call connected again; nothing else passes).
 */
export const RELAYED = new Set(['offer', 'answer', 'candidate', 'media-state', 'restart', 'connected']);
export const MAX_MESSAGE_BYTES = 64 * 1024;

/**
 * Two-party signalling for the built-in interview room. Each room holds at most one socket per
 * role (a reload replaces the older socket). When both are present the recruiter makes the
 * offer. State is per API process: both parties of a room must reach the same process (one API
 * process by default; behind several replicas route /rooms/<matchId> by match id, or use a hosted
 * video provider through the adapter).
 */
export class RoomHub {
  private rooms = new Map<string, Map<MatchPartyRole, WebSocket>>();

  /** Adds the socket; answers whether both parties are now in the room. */
  join(matchId: string, role: MatchPartyRole, socket: WebSocket): boolean {
    let room = this.rooms.get(matchId);
    if (!room) this.rooms.set(matchId, (room = new Map()));
    const previous = room.get(role);
    room.set(role, socket);
    if (previous && previous !== socket) previous.close(4000, 'replaced by a newer connection');
    const other = room.get(role === 'seeker' ? 'recruiter' : 'seeker');
    if (other) {
      // Both present: each side starts a fresh peer connection; the recruiter offers.
      this.send(room.get('recruiter'), { type: 'start', offerer: true });
      this.send(room.get('seeker'), { type: 'start', offerer: false });
      return true;
    }
    this.send(socket, { type: 'waiting' });
    return false;
  }

  /** A message from the server to everyone in the room (the interview clock). */
  broadcast(matchId: string, message: unknown): void {
    for (const s of this.rooms.get(matchId)?.values() ?? []) this.send(s, message);
  }

  leave(matchId: string, role: MatchPartyRole, socket: WebSocket): void {
    const room = this.rooms.get(matchId);
    if (!room || room.get(role) !== socket) return;
    room.delete(role);
    this.send(room.get(role === 'seeker' ? 'recruiter' : 'seeker'), { type: 'peer-left' });
    if (room.size === 0) this.rooms.delete(matchId);
  }

  relay(matchId: string, from: MatchPartyRole, socket: WebSocket, message: unknown): void {
    const room = this.rooms.get(matchId);
    if (!room || room.get(from) !== socket) return;
    this.send(room.get(from === 'seeker' ? 'recruiter' : 'seeker'), message);
  }

  /** The interview ended: tell everyone in the room, then close their sockets. */
  close(matchId: string, reason: string): void {
    const room = this.rooms.get(matchId);
    if (!room) return;
    for (const s of room.values()) {
      this.send(s, { type: 'room-closed', reason });
      s.close(1000, 'interview ended');
    }
    this.rooms.delete(matchId);
  }

  closeAll(): void {
    for (const id of [...this.rooms.keys()]) this.close(id, 'server shutting down');
  }

  private send(socket: WebSocket | undefined, message: unknown): void {
    if (socket && socket.readyState === socket.OPEN) socket.send(JSON.stringify(message));
  }
}
