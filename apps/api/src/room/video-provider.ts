import { createHmac, timingSafeEqual } from 'node:crypto';
import { DependencyUnavailableError } from '#lib/errors';
import type { Config } from '#lib/config';
import { type MatchPartyRole } from '#workflows/matches/contract';

/**
 * The video provider adapter: issues a URL that lets one party of an accepted match into the
 * interview room. The built-in room (a page of our web app, WebRTC peer to peer) is the default;
 * a hosted provider replaces it by implementing this interface (VIDEO_PROVIDER_URL selects the
 * HTTP adapter below). A provider that cannot be reached → 503 DEPENDENCY_UNAVAILABLE.
 */
export interface VideoProvider {
  readonly name: string;
  issueRoomUrl(input: IssueRoomUrlInput): Promise<IssueRoomUrlResult>;
}

export interface IssueRoomUrlInput {
  matchId: string;
  userId: string;
  role: MatchPartyRole;
  ttlMs: number;
}

export interface IssueRoomUrlResult {
  roomUrl: string;
  expiresAt: Date;
}

export class VideoProviderUnavailableError extends DependencyUnavailableError {
  constructor(
    provider: string,
    public readonly reason: string,
  ) {
    super(`video provider ${provider}`, 5);
  }
}

interface RoomTokenPayload {
  /** match id */
  m: string;
  /** user id */
  u: string;
  /** role */
  r: MatchPartyRole;
  /** expiry, epoch seconds */
  e: number;
}

const roomKey = (appSecret: string) => createHmac('sha256', appSecret).update('interview-room-token:v1').digest();

/**
 * Built-in room: `${publicBaseUrl}/rooms/<matchId>?t=<token>`, the token an HMAC-signed
 * (match, user, role, expiry) so the room page admits exactly that party until it expires.
 */
export function createBuiltInVideoProvider(opts: {
  publicBaseUrl: string;
  appSecret: string;
  now?: () => number;
}): VideoProvider {
  const key = roomKey(opts.appSecret);
  const now = opts.now ?? Date.now;
  return {
    name: 'built-in',
    async issueRoomUrl({ matchId, userId, role, ttlMs }) {
      const expiresAt = new Date(Math.floor((now() + ttlMs) / 1000) * 1000);
      const body = Buffer.from(
        JSON.stringify({ m: matchId, u: userId, r: role, e: expiresAt.getTime() / 1000 } satisfies RoomTokenPayload),
      ).toString('base64url');
      const mac = createHmac('sha256', key).update(body).digest('base64url');
      return { roomUrl: `${opts.publicBaseUrl}/rooms/${encodeURIComponent(matchId)}?t=${body}.${mac}`, expiresAt };
    },
  };
}

/** For the room page: the party a built-in room token admits, or null (tampered, expired, other match). */
export function verifyRoomToken(
  appSecret: string,
  matchId: string,
  token: string,
  nowMs = Date.now(),
): { userId: string; role: MatchPartyRole; expiresAt: Date } | null {
  const [body, mac] = token.split('.');
  if (!body || !mac) return null;
  const expected = createHmac('sha256', roomKey(appSecret)).update(body).digest();
  const given = Buffer.from(mac, 'base64url');
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  let p: RoomTokenPayload;
  try {
    p = JSON.parse(Buffer.from(body, 'base64url').toString('utf8'));
  } catch {
    return null;
  }
  if (p.m !== matchId || p.e * 1000 <= nowMs) return null;
  return { userId: p.u, role: p.r, expiresAt: new Date(p.e * 1000) };
}

/**
 * Adapter for a hosted provider behind a small HTTP contract: `POST {baseUrl}/rooms` with
 * `{ room, participant, role, expires_at }` → 2xx `{ url }`. Network errors, timeouts and 5xx
 * mean the provider is down (503 to our caller, safe to retry); a malformed answer too.
 */
export function createHttpVideoProvider(opts: {
  baseUrl: string;
  timeoutMs?: number;
  now?: () => number;
}): VideoProvider {
  const now = opts.now ?? Date.now;
  const base = opts.baseUrl.replace(/\/$/, '');
  return {
    name: 'http',
    async issueRoomUrl({ matchId, userId, role, ttlMs }) {
      const expiresAt = new Date(Math.floor((now() + ttlMs) / 1000) * 1000);
      let res: Response;
      try {
        res = await fetch(`${base}/rooms`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ room: matchId, participant: userId, role, expires_at: expiresAt.toISOString() }),
          signal: AbortSignal.timeout(opts.timeoutMs ?? 5_000),
          redirect: 'error',
        });
      } catch (err) {
        throw new VideoProviderUnavailableError('http', (err as Error).message);
      }
      if (!res.ok) throw new VideoProviderUnavailableError('http', `status ${res.status}`);
      const body = (await res.json().catch(() => null)) as { url?: unknown } | null;
      if (!body || typeof body.url !== 'string' || !/^https?:\/\//.test(body.url))
        throw new VideoProviderUnavailableError('http', 'malformed answer');
      return { roomUrl: body.url, expiresAt };
    },
  };
}

export function createVideoProvider(
  config: Pick<Config, 'VIDEO_PROVIDER_URL' | 'publicBaseUrl'>,
  appSecret: string,
): VideoProvider {
  return config.VIDEO_PROVIDER_URL
    ? createHttpVideoProvider({ baseUrl: config.VIDEO_PROVIDER_URL })
    : createBuiltInVideoProvider({ publicBaseUrl: config.publicBaseUrl, appSecret });
}
