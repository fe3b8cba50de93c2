import { createCipheriv, createDecipheriv, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { ParticipantInfo } from 'livekit-server-sdk';
import type { Config } from '#lib/config';
import { UUID_RE } from '#lib/ids';
import { type MatchPartyRole } from '#workflows/matches/contract';

/** One LiveKit room per match: `match-<matchId>` (the webhook reads the match back from it). */
export const liveKitRoomName = (matchId: string): string => `match-${matchId}`;

export function matchIdOfRoom(roomName: string | undefined): string | null {
  const m = /^match-(.+)$/.exec(roomName ?? '');
  return m && UUID_RE.test(m[1]) ? m[1] : null;
}

const tagOf = (appSecret: string, matchId: string, role: MatchPartyRole): string =>
  createHmac('sha256', appSecret).update(`livekit-identity:v1:${matchId}:${role}`).digest('hex').slice(0, 20);

/**
 * A party's identity in the LiveKit room: `<role>-<tag>`, the tag an HMAC of (match, role) under
 * the app secret. Not guessable from outside, the same on every join (LiveKit then replaces the
 * older connection of that identity: one participant per side, like the built-in room), and it
 * names the side so the webhook knows who arrived.
 */
export const liveKitIdentity = (appSecret: string, matchId: string, role: MatchPartyRole): string =>
  `${role}-${tagOf(appSecret, matchId, role)}`;

/** The side an identity stands for in this match's room, or null (forged, another room, not ours). */
export function roleOfIdentity(appSecret: string, matchId: string, identity: string): MatchPartyRole | null {
  const m = /^(seeker|recruiter)-([0-9a-f]{20})$/.exec(identity);
  if (!m) return null;
  const role = m[1] as MatchPartyRole;
  const expected = Buffer.from(tagOf(appSecret, matchId, role));
  return timingSafeEqual(Buffer.from(m[2]), expected) ? role : null;
}

const sealKey = (appSecret: string) => createHmac('sha256', appSecret).update('livekit-participant:v1').digest();

/**
 * The participant's metadata: the user id, sealed (AES-256-GCM under a key derived from the app
 * secret, bound to the match and side). LiveKit shows metadata to the other participant; sealed,
 * it tells them nothing, and it comes back in the webhook so the arrival is recorded for the
 * person who entered (a team's recruiter is not always named on the match).
 */
export function sealParticipant(appSecret: string, matchId: string, role: MatchPartyRole, userId: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', sealKey(appSecret), iv);
  cipher.setAAD(Buffer.from(`${matchId}:${role}`));
  const body = Buffer.concat([cipher.update(userId, 'utf8'), cipher.final()]);
  return `v1.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
}

export function unsealParticipant(
  appSecret: string,
  matchId: string,
  role: MatchPartyRole,
  sealed: string,
): string | null {
  const m = /^v1\.([A-Za-z0-9_-]+)$/.exec(sealed);
  if (!m) return null;
  const raw = Buffer.from(m[1], 'base64url');
  if (raw.length < 12 + 16 + 1) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', sealKey(appSecret), raw.subarray(0, 12));
    decipher.setAAD(Buffer.from(`${matchId}:${role}`));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    const userId = Buffer.concat([decipher.update(raw.subarray(12, raw.length - 16)), decipher.final()]).toString();
    return UUID_RE.test(userId) ? userId : null;
  } catch {
    return null;
  }
}

export interface LiveKitSettings {
  url: string;
  apiKey: string;
  apiSecret: string;
  appSecret: string;
}

/**
 * A participant token for one party of one match: join that one room only (publish camera and
 * microphone, subscribe; no data publishing, no room administration), expiring with the room URL
 * that admitted the party. LiveKit checks it at every (re)connection.
 */
export async function mintLiveKitToken(
  s: Pick<LiveKitSettings, 'apiKey' | 'apiSecret' | 'appSecret'>,
  p: { matchId: string; userId: string; role: MatchPartyRole; expiresAt: Date },
  nowMs = Date.now(),
): Promise<string> {
  // The SDK's ttl is relative to its own clock: whole seconds until the room URL expires (a string,
  // so 0 and negative values are kept: the SDK replaces a 0 number with its 6 h default).
  const ttl = `${Math.floor((p.expiresAt.getTime() - nowMs) / 1000)}s`;
  // The SDK is loaded on first use: an API without LiveKit never loads it.
  const { AccessToken } = await import('livekit-server-sdk');
  const at = new AccessToken(s.apiKey, s.apiSecret, {
    identity: liveKitIdentity(s.appSecret, p.matchId, p.role),
    metadata: sealParticipant(s.appSecret, p.matchId, p.role, p.userId),
    ttl,
  });
  at.addGrant({
    room: liveKitRoomName(p.matchId),
    roomJoin: true,
    canPublish: true,
    canSubscribe: true,
    canPublishData: false,
    canUpdateOwnMetadata: false,
  });
  return at.toJwt();
}

/** A human party present in the room, as LiveKit reports it (identity checked, user id unsealed). */
export interface LiveKitParty {
  role: MatchPartyRole;
  userId: string;
}

export function partyOfParticipant(
  appSecret: string,
  matchId: string,
  p: Pick<ParticipantInfo, 'identity' | 'metadata'> | undefined,
): LiveKitParty | null {
  if (!p) return null;
  const role = roleOfIdentity(appSecret, matchId, p.identity);
  const userId = role ? unsealParticipant(appSecret, matchId, role, p.metadata) : null;
  return role && userId ? { role, userId } : null;
}

export function liveKitSettings(
  config: Pick<Config, 'VIDEO_PROVIDER' | 'LIVEKIT_URL' | 'LIVEKIT_API_KEY' | 'LIVEKIT_API_SECRET'>,
  appSecret: string,
): LiveKitSettings | null {
  if (config.VIDEO_PROVIDER !== 'livekit') return null;
  return {
    url: config.LIVEKIT_URL!,
    apiKey: config.LIVEKIT_API_KEY!,
    apiSecret: config.LIVEKIT_API_SECRET!,
    appSecret,
  };
}
