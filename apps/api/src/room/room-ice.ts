import { createHmac } from 'node:crypto';
import type { Config } from '#lib/config';
import type { MatchPartyRole } from '#workflows/matches/contract';

/** One entry of RTCConfiguration.iceServers, as the room page hands it to RTCPeerConnection. */
export interface IceServer {
  urls: string[];
  username?: string;
  credential?: string;
}

export interface RoomIceConfig {
  iceServers: IceServer[];
  iceTransportPolicy: 'all' | 'relay';
}

/**
 * Time-limited TURN credentials in the shared-secret scheme coturn calls the "TURN REST API"
 * (`--use-auth-secret --static-auth-secret`): username `<expiry, unix seconds>:<label>`, password
 * base64(HMAC-SHA1(secret, username)). The TURN server recomputes the password from the username
 * and refuses it after the expiry; nothing is stored. The label names the room and the side, as an
 * opaque tag derived from the app secret, so a TURN server's log says nothing about who took part.
 */
export function mintTurnCredential(o: {
  turnSecret: string;
  appSecret: string;
  matchId: string;
  role: MatchPartyRole;
  expiresAt: Date;
}): { username: string; credential: string } {
  const room = createHmac('sha256', o.appSecret).update(`turn-room:v1:${o.matchId}`).digest('hex').slice(0, 16);
  const username = `${Math.floor(o.expiresAt.getTime() / 1000)}:room-${room}-${o.role === 'seeker' ? 's' : 'r'}`;
  const credential = createHmac('sha1', o.turnSecret).update(username).digest('base64');
  return { username, credential };
}

/**
 * What the room page's peer connection is configured with: the STUN URLs as they are, the TURN
 * URLs with a credential minted for this party that expires with its room URL. Sent to the page
 * over the room's signalling socket only (never in the HTML, never logged).
 */
export function roomIceConfig(
  config: Pick<Config, 'ROOM_STUN_URLS' | 'ROOM_TURN_URLS' | 'ROOM_TURN_SECRET' | 'ROOM_ICE_TRANSPORT_POLICY'>,
  party: { appSecret: string; matchId: string; role: MatchPartyRole; expiresAt: Date },
): RoomIceConfig {
  const iceServers: IceServer[] = [];
  if (config.ROOM_STUN_URLS.length) iceServers.push({ urls: config.ROOM_STUN_URLS });
  if (config.ROOM_TURN_URLS.length && config.ROOM_TURN_SECRET)
    iceServers.push({
      urls: config.ROOM_TURN_URLS,
      ...mintTurnCredential({ turnSecret: config.ROOM_TURN_SECRET, ...party }),
    });
  return { iceServers, iceTransportPolicy: config.ROOM_ICE_TRANSPORT_POLICY };
}
