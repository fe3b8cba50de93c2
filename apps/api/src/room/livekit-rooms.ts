import {
  DataPacket_Kind,
  ParticipantInfo_State,
  RoomServiceClient,
  WebhookReceiver,
  type ParticipantInfo,
  type WebhookEvent,
} from 'livekit-server-sdk';
import { type MatchPartyRole } from '#workflows/matches/contract';
import { VideoProviderUnavailableError } from './video-provider';
import {
  liveKitRoomName,
  mintLiveKitToken,
  partyOfParticipant,
  type LiveKitParty,
  type LiveKitSettings,
} from './livekit-tokens';

/**
 * The LiveKit server as the room engine (this module loads its server SDK: the LiveKit room
 * service imports it only when VIDEO_PROVIDER=livekit, on first use): its room service (create, list participants, send the
 * clock, delete), its webhook signature check, and the tokens. Calls that fail → 503 through
 * VideoProviderUnavailableError, like any video provider.
 */
export function createLiveKitRooms(s: LiveKitSettings) {
  const rooms = new RoomServiceClient(s.url, s.apiKey, s.apiSecret);
  const receiver = new WebhookReceiver(s.apiKey, s.apiSecret);
  const unavailable = (err: unknown) => new VideoProviderUnavailableError('livekit', (err as Error).message);
  return {
    url: s.url,

    /** The match's room (idempotent: LiveKit answers the existing room): two people at most; closed 5 min after it empties. */
    async ensureRoom(matchId: string): Promise<void> {
      try {
        await rooms.createRoom({
          name: liveKitRoomName(matchId),
          maxParticipants: 2,
          emptyTimeout: 5 * 60,
          departureTimeout: 5 * 60,
        });
      } catch (err) {
        throw unavailable(err);
      }
    },

    mintToken: (p: { matchId: string; userId: string; role: MatchPartyRole; expiresAt: Date }) =>
      mintLiveKitToken(s, p),

    /** The parties connected now (LiveKit's view; identities checked). */
    async partiesIn(matchId: string): Promise<LiveKitParty[]> {
      let list: ParticipantInfo[];
      try {
        list = await rooms.listParticipants(liveKitRoomName(matchId));
      } catch (err) {
        throw unavailable(err);
      }
      return list
        .filter((p) => p.state !== ParticipantInfo_State.DISCONNECTED)
        .map((p) => partyOfParticipant(s.appSecret, matchId, p))
        .filter((p): p is LiveKitParty => p !== null);
    },

    /** A message from the server to both pages (the interview clock), on the `jobfair` topic. */
    async broadcast(matchId: string, message: unknown): Promise<void> {
      try {
        await rooms.sendData(
          liveKitRoomName(matchId),
          new TextEncoder().encode(JSON.stringify(message)),
          DataPacket_Kind.RELIABLE,
          { topic: 'jobfair' },
        );
      } catch (err) {
        throw unavailable(err);
      }
    },

    /** The interview ended: the room goes, and LiveKit disconnects both pages (ROOM_DELETED). */
    async close(matchId: string): Promise<void> {
      try {
        await rooms.deleteRoom(liveKitRoomName(matchId));
      } catch (err) {
        // Already gone (empty timeout) is fine.
        if (!/not.?found|does not exist|404/i.test(String((err as Error).message))) throw unavailable(err);
      }
    },

    /** A webhook LiveKit signed (Authorization: a JWT with the body's SHA-256), or throws. */
    receive: (body: string, authorization: string | undefined): Promise<WebhookEvent> =>
      receiver.receive(body, authorization),
  };
}
export type LiveKitRooms = ReturnType<typeof createLiveKitRooms>;
