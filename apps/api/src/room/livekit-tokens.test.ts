import { TokenVerifier } from 'livekit-server-sdk';
import {
  liveKitIdentity,
  liveKitRoomName,
  matchIdOfRoom,
  mintLiveKitToken,
  partyOfParticipant,
  roleOfIdentity,
  sealParticipant,
  unsealParticipant,
} from './livekit-tokens';
import { ConfigError, loadConfig } from '#lib/config';

const keys = { apiKey: 'APItestkey', apiSecret: 'a-livekit-secret-of-at-least-32-chars!!', appSecret: 'app-secret' };
const matchId = '5f0c6a58-0d7e-4b0e-9d55-0c1e8f6f9a11';
const otherMatch = '0a4b7c1e-2d3f-4e5a-8b9c-0d1e2f3a4b5c';
const userId = '7d2c1b0a-9e8f-4a6b-8c5d-4e3f2a1b0c9d';

/** The token's claims as LiveKit reads them (signature checked with the API secret). */
const claims = (jwt: string) => new TokenVerifier(keys.apiKey, keys.apiSecret).verify(jwt);
const payload = (jwt: string) =>
  JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString()) as Record<string, number>;

describe('LiveKit participant tokens for the interview room', () => {
  it('joins exactly the match room, publishes media, nothing more; signed with the API key', async () => {
    const expiresAt = new Date(Date.now() + 30 * 60_000);
    const jwt = await mintLiveKitToken(keys, { matchId, userId, role: 'seeker', expiresAt });
    const c = await claims(jwt);
    expect(c.video).toEqual({
      room: liveKitRoomName(matchId),
      roomJoin: true,
      canPublish: true,
      canSubscribe: true,
      canPublishData: false,
      canUpdateOwnMetadata: false,
    });
    expect(c.video?.roomAdmin).toBeUndefined();
    expect(c.video?.roomCreate).toBeUndefined();
    expect(payload(jwt).iss).toBe(keys.apiKey);
    // Another secret does not verify it (LiveKit would refuse it).
    await expect(new TokenVerifier(keys.apiKey, 'another-secret-another-secret-xxxxx').verify(jwt)).rejects.toThrow();
  });

  it('expires with the room URL', async () => {
    const now = Date.now();
    const expiresAt = new Date(now + 90_000);
    const p = payload(await mintLiveKitToken(keys, { matchId, userId, role: 'recruiter', expiresAt }, now));
    expect(Math.abs(p.exp - Math.floor(expiresAt.getTime() / 1000))).toBeLessThanOrEqual(1);
    // An expired room URL gives an expired token (not the SDK's 6 h default).
    const past = payload(
      await mintLiveKitToken(keys, { matchId, userId, role: 'recruiter', expiresAt: new Date(now - 120_000) }, now),
    );
    expect(past.exp).toBeLessThan(now / 1000 - 100);
    await expect(
      claims(
        await mintLiveKitToken(keys, { matchId, userId, role: 'seeker', expiresAt: new Date(now - 120_000) }, now),
      ),
    ).rejects.toThrow();
  });

  it('identity: opaque, the same per match and side, mapped back to the side; the user id sealed in the metadata', async () => {
    const jwt = await mintLiveKitToken(keys, {
      matchId,
      userId,
      role: 'recruiter',
      expiresAt: new Date(Date.now() + 60_000),
    });
    const c = await claims(jwt);
    expect(c.sub).toBe(liveKitIdentity(keys.appSecret, matchId, 'recruiter'));
    expect(c.sub).toMatch(/^recruiter-[0-9a-f]{20}$/);
    expect(c.sub).not.toContain(userId);
    expect(c.metadata).not.toContain(userId);
    expect(roleOfIdentity(keys.appSecret, matchId, c.sub!)).toBe('recruiter');
    // Not valid in another match's room, nor forged without the app secret.
    expect(roleOfIdentity(keys.appSecret, otherMatch, c.sub!)).toBeNull();
    expect(roleOfIdentity('another-app-secret', matchId, c.sub!)).toBeNull();
    expect(roleOfIdentity(keys.appSecret, matchId, 'seeker-' + c.sub!.slice('recruiter-'.length))).toBeNull();
    expect(partyOfParticipant(keys.appSecret, matchId, { identity: c.sub!, metadata: c.metadata! })).toEqual({
      role: 'recruiter',
      userId,
    });
    // The sealed user id is bound to the match and side.
    const sealed = sealParticipant(keys.appSecret, matchId, 'seeker', userId);
    expect(unsealParticipant(keys.appSecret, matchId, 'seeker', sealed)).toBe(userId);
    expect(unsealParticipant(keys.appSecret, matchId, 'recruiter', sealed)).toBeNull();
    expect(unsealParticipant(keys.appSecret, otherMatch, 'seeker', sealed)).toBeNull();
    expect(unsealParticipant(keys.appSecret, matchId, 'seeker', sealed.slice(0, -2) + 'AA')).toBeNull();
    // An agent or anyone else LiveKit might list is no party.
    expect(partyOfParticipant(keys.appSecret, matchId, { identity: 'agent-1', metadata: '' })).toBeNull();
  });

  it('room names carry the match id; anything else is not a match room', () => {
    expect(matchIdOfRoom(liveKitRoomName(matchId))).toBe(matchId);
    expect(matchIdOfRoom('match-not-a-uuid')).toBeNull();
    expect(matchIdOfRoom(undefined)).toBeNull();
  });

  it('VIDEO_PROVIDER=livekit needs the URL, key and secret, and is one engine at a time', () => {
    expect(() => loadConfig({}, { VIDEO_PROVIDER: 'livekit' })).toThrow(ConfigError);
    expect(() =>
      loadConfig(
        {},
        {
          VIDEO_PROVIDER: 'livekit',
          LIVEKIT_URL: 'wss://livekit.example.org',
          LIVEKIT_API_KEY: keys.apiKey,
          LIVEKIT_API_SECRET: keys.apiSecret,
          VIDEO_PROVIDER_URL: 'https://video.example.org',
        },
      ),
    ).toThrow(/one room engine/);
    const c = loadConfig(
      {},
      {
        VIDEO_PROVIDER: 'livekit',
        LIVEKIT_URL: 'wss://livekit.example.org',
        LIVEKIT_API_KEY: keys.apiKey,
        LIVEKIT_API_SECRET: keys.apiSecret,
      },
    );
    expect(c.VIDEO_PROVIDER).toBe('livekit');
    expect(loadConfig({}, {}).VIDEO_PROVIDER).toBe('built-in');
  });
});
